package checks

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/closurerules"
)

var boardT0 = time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)

// sampleBoard is a board with every state, an inbox and certificates.
func sampleBoard() boardview.Board {
	u := "https://github.com/acme/app"
	check := func(pr int, name, status, conclusion string, id int) boardview.Check {
		return boardview.Check{Name: name, Status: status, Conclusion: conclusion, URL: fmt.Sprintf("%s/runs/%d", u, id)}
	}
	return boardview.Board{Version: boardview.Version, Repo: "acme/app", URL: u,
		Inbox: []boardview.InboxItem{
			{Kind: "gate", Subject: "#12 Export reports", Question: "Ship the CSV export before the audit?", Choices: []string{"yes", "no"},
				Reply: "/aep resolve export-order yes", URL: u + "/pull/21#issuecomment-5", Since: boardT0.Add(-3 * time.Hour)},
			{Kind: "hold", Subject: "project", Question: "HOLD: waiting for the legal review", Reply: "/aep resume", URL: u + "/issues/1#issuecomment-7", Since: boardT0.Add(-2 * time.Hour)},
			{Kind: "stall", Subject: "#23 Import", Question: "No new evidence (push, workflow run or report) on the attempt at work unit #14 since 2026-12-01T08:00:00Z.", URL: u + "/pull/23", Since: boardT0.Add(-90 * time.Minute)},
		},
		Increments: []boardview.Increment{
			{Number: 2, Title: "Reports v1", URL: u + "/milestone/2", Open: true,
				Problems: []string{"#24 exceeds limits.lanes_per_increment; open within it: #21 (work unit #12), #23 (work unit #14)"},
				Stories: []boardview.Story{
					{Number: 11, Title: "Report model", URL: u + "/issues/11", Class: "contract", Risk: "low", State: boardview.StateCertified,
						Attempts: []boardview.Attempt{{PR: 20, URL: u + "/pull/20", Merged: true}}},
					{Number: 12, Title: "Export reports", URL: u + "/issues/12", Class: "product", Risk: "medium", DependsOn: []int{11}, State: boardview.StateHeld, Reason: "an owner gate is open",
						Attempts: []boardview.Attempt{{PR: 21, URL: u + "/pull/21", Open: true, Health: boardview.Healthy, LastEvidence: boardT0,
							Checks: []boardview.Check{check(21, "aepgate/work-unit", "completed", "success", 101), check(21, "aepgate/gates", "completed", "action_required", 102), check(21, "aepgate/audit", "in_progress", "", 103)}}}},
					{Number: 13, Title: "Charts", URL: u + "/issues/13", Class: "product", Risk: "medium", DependsOn: []int{12}, State: boardview.StateOpen},
					{Number: 14, Title: "Import", URL: u + "/issues/14", Class: "product", Risk: "high", DependsOn: []int{11}, State: boardview.StateInReview,
						Attempts: []boardview.Attempt{{PR: 22, URL: u + "/pull/22"}, {PR: 23, URL: u + "/pull/23", Open: true, Health: boardview.Stalled, LastEvidence: boardT0.Add(-90 * time.Minute)}}},
					{Number: 15, Title: "Scheduling", URL: u + "/issues/15", Class: "product", Risk: "medium", State: boardview.StateBlocked, Reason: "#24 is over limits.lanes_per_increment",
						Attempts: []boardview.Attempt{{PR: 24, URL: u + "/pull/24", Open: true, Health: boardview.Suspect, OverLimit: "limits.lanes_per_increment",
							Checks: []boardview.Check{check(24, "aepgate/work-unit", "completed", "failure", 104)}}}},
					{Number: 16, Title: "Audit log", URL: u + "/issues/16", Class: "housekeeping", Risk: "low", State: boardview.StateMerged,
						Attempts: []boardview.Attempt{{PR: 25, URL: u + "/pull/25", Merged: true}}},
					{Number: 17, Title: "Permissions", URL: u + "/issues/17", Class: "product", Risk: "medium", State: boardview.StateInProgress,
						Attempts: []boardview.Attempt{{PR: 26, URL: u + "/pull/26", Open: true, Health: boardview.Healthy}}},
				}},
			{Number: 1, Title: "Walking skeleton", URL: u + "/milestone/1", Open: false,
				Stories: []boardview.Story{{Number: 3, Title: "Hello", URL: u + "/issues/3", Class: "product", Risk: "low", State: boardview.StateCertified}}},
		},
		Certificates: []boardview.Certificate{
			{Unit: 11, PR: 20, SHA: strings.Repeat("ab", 20), URL: u + "/commit/" + strings.Repeat("ab", 20), At: boardT0.Add(-time.Hour)},
			{Unit: 3, PR: 4, SHA: strings.Repeat("cd", 20), URL: u + "/commit/" + strings.Repeat("cd", 20), At: boardT0.Add(-48 * time.Hour)},
		},
	}
}

// attackBoard carries issue and pull-request text written to break out:
// fake markers, HTML, links, a table pipe, a code fence and Mermaid syntax.
func attackBoard() boardview.Board {
	evil := "x <!-- aepgate:board:end --> | [click](javascript:alert(1)) <img src=x> ```\"]; click s1 href \"javascript:alert(1)\" %%{init: {}}%%"
	b := boardview.Board{Version: boardview.Version, Repo: "acme/app", URL: "https://github.com/acme/app",
		Inbox: []boardview.InboxItem{{Kind: "gate", Subject: evil, Question: evil + "\n" + BoardBegin + "\n" + boardHashPrefix + strings.Repeat("0", 64) + " -->\n", Choices: []string{"a|b", "`c`"}, Reply: "/aep resolve g a|b", URL: "javascript:alert(1)", Since: boardT0}},
		Increments: []boardview.Increment{{Number: 1, Title: evil, URL: "https://github.com/acme/app/milestone/1\" onclick=\"x", Open: true, Problems: []string{evil},
			Stories: []boardview.Story{{Number: 1, Title: evil, URL: "https://github.com/acme/app/issues/1", State: boardview.StateBlocked, Reason: evil, Class: evil}}}}}
	return b
}

// retroBoard is a board whose story #5 was merged under an owner's
// override and owes its retro-audit (boardview.RetroAuditItem).
func retroBoard() boardview.Board {
	u := "https://github.com/acme/app"
	v := closurerules.Verdict{Number: 5, State: closurerules.RetroOwed, Closer: "olivia", Command: "/aep waive <reason>",
		Missing: "#9 owes a retro-audit (an independent audit PASS at the merged commit, or an owner's `/aep waive <reason>` on #9): merged as abababababab under an override of aepgate/merge (overridden by olivia: the audit service is down and this fixes production)"}
	return boardview.Board{Version: boardview.Version, Repo: "acme/app", URL: u,
		Inbox: []boardview.InboxItem{boardview.RetroAuditItem(v, u, boardT0.Add(-time.Hour))},
		Increments: []boardview.Increment{{Number: 1, Title: "Hotfixes", URL: u + "/milestone/1", Open: true,
			Stories: []boardview.Story{{Number: 5, Title: "Fix the outage", URL: u + "/issues/5", Class: "product", Risk: "medium", State: boardview.StateBlocked,
				Reason: "merged under an override, not done: " + v.Missing, Attempts: []boardview.Attempt{{PR: 9, URL: u + "/pull/9", Merged: true}}}}}},
	}
}

func TestBoardGolden(t *testing.T) {
	tests := []struct {
		name string
		b    boardview.Board
	}{
		{"board-empty", boardview.Board{Version: boardview.Version, Repo: "acme/app", URL: "https://github.com/acme/app"}},
		{"board-sample", sampleBoard()},
		{"board-attack", attackBoard()},
		{"board-retro", retroBoard()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			golden.CheckString(t, "testdata/"+tt.name+".golden", BoardIssueBody(BoardRegion(tt.b)))
		})
	}
}

// TestBoardRegionHoldsNoMarker: text from GitHub never renders as a marker
// line or an HTML comment, so the region can always be found again.
func TestBoardRegionHoldsNoMarker(t *testing.T) {
	region := BoardRegion(attackBoard())
	if n := strings.Count(region, "<!--"); n != 3 {
		t.Errorf("region holds %d HTML comments, want 3 (the markers):\n%s", n, region)
	}
	body := "notes above\n\n" + region + "\nnotes below\n"
	start, end, ok := findBoard(body)
	if !ok || body[start:end] != region {
		t.Errorf("findBoard found %q, want the whole region", body[start:end])
	}
}

// TestBoardEscapesNegativeControl renders the attack board without the
// escapers: a title then writes a fake end marker, which ends the region
// early, and a rewrite leaves the rest of the old board behind as if a
// person had written it.
func TestBoardEscapesNegativeControl(t *testing.T) {
	same := func(s string) string { return s }
	region := boardRegion(attackBoard(), boardEscapes{text: same, node: same})
	body := MergeBoard("", region)
	next := MergeBoard(body, BoardRegion(boardview.Board{Version: boardview.Version, Repo: "acme/app"}))
	if !strings.Contains(next, "click s1 href") {
		t.Fatalf("without escaping the rewrite still removed the whole old board:\n%s", next)
	}
	body = MergeBoard("", BoardRegion(attackBoard()))
	next = MergeBoard(body, BoardRegion(boardview.Board{Version: boardview.Version, Repo: "acme/app"}))
	if strings.Contains(next, "click s1 href") || strings.Contains(next, "javascript") {
		t.Errorf("with escaping a rewrite left part of the old board:\n%s", next)
	}
}

func TestBoardHashStable(t *testing.T) {
	a, b := BoardRegion(sampleBoard()), BoardRegion(sampleBoard())
	if a != b || boardHash(a) == "" {
		t.Fatalf("the same board rendered differently or without a hash")
	}
	changed := sampleBoard()
	changed.Increments[0].Stories[2].State = boardview.StateInProgress
	if boardHash(BoardRegion(changed)) == boardHash(a) {
		t.Error("a changed board kept its hash")
	}
}

// boardHash returns the hash marker's value in region, or "".
func boardHash(region string) string {
	for _, l := range strings.Split(region, "\n") {
		l = strings.TrimRight(l, "\r")
		if strings.HasPrefix(l, boardHashPrefix) && strings.HasSuffix(l, " -->") {
			return strings.TrimSuffix(strings.TrimPrefix(l, boardHashPrefix), " -->")
		}
	}
	return ""
}
