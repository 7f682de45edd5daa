package boardweb

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/rundir"
	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/status"
)

var boardNow = time.Date(2026, 11, 12, 9, 30, 0, 0, time.UTC)

// htmlSampleBoard is a board with every state, an inbox, a stall and a
// certificate.
func htmlSampleBoard() boardview.Board {
	u := "https://github.com/acme/ledger"
	att := func(pr int, open, merged bool, h boardview.Health) boardview.Attempt {
		return boardview.Attempt{PR: pr, Title: "attempt", URL: u + "/pull/" + strconv.Itoa(pr), Head: "feed", Open: open, Merged: merged, Health: h}
	}
	return boardview.Board{Version: boardview.Version, Repo: "acme/ledger", URL: u,
		Inbox: []boardview.InboxItem{
			{Kind: "gate", Subject: "#14 Idempotent postings", Question: "Ship the backfill before the index?", Choices: []string{"backfill-first", "index-first"},
				Reply: "/aep resolve G1 backfill-first", URL: u + "/issues/14", Since: boardNow.Add(-26 * time.Hour)},
			{Kind: "stall", Subject: "#17 Payout retries", Question: "no new evidence for 3 days", URL: u + "/pull/41", Since: boardNow.Add(-72 * time.Hour)},
		},
		Increments: []boardview.Increment{{Number: 3, Title: "v1.4 — Idempotent ledger", URL: u + "/milestone/3", Open: true,
			Problems: []string{"WIP limit: 3 attempts open, the limit is 2"},
			Stories: []boardview.Story{
				{Number: 12, Title: "Idempotency key column", URL: u + "/issues/12", Class: "product", Risk: "medium", State: boardview.StateCertified, Attempts: []boardview.Attempt{att(30, false, true, "")}},
				{Number: 13, Title: "Reject duplicate postings with 409", URL: u + "/issues/13", Class: "product", Risk: "high", DependsOn: []int{12}, State: boardview.StateMerged, Attempts: []boardview.Attempt{att(33, false, true, "")}},
				{Number: 14, Title: "Backfill existing postings", URL: u + "/issues/14", Class: "contract", Risk: "medium", DependsOn: []int{12}, State: boardview.StateHeld, Reason: "HOLD by owner: wait for the DBA"},
				{Number: 15, Title: "Batch jobs send keys", URL: u + "/issues/15", Class: "product", DependsOn: []int{13, 14}, State: boardview.StateInReview, Attempts: []boardview.Attempt{att(39, true, false, boardview.Healthy)}},
				{Number: 16, Title: "Ledger export shows keys", URL: u + "/issues/16", Class: "product", DependsOn: []int{13}, State: boardview.StateInProgress, Attempts: []boardview.Attempt{att(40, true, false, boardview.Suspect)}},
				{Number: 17, Title: "Payout retries use the same key", URL: u + "/issues/17", Class: "product", Risk: "high", DependsOn: []int{15}, State: boardview.StateBlocked, Reason: "depends on #15, still open", Attempts: []boardview.Attempt{{PR: 41, URL: u + "/pull/41", Open: true, Health: boardview.Stalled, OverLimit: "wip.attempts"}}},
				{Number: 18, Title: "Runbook for key collisions", URL: u + "/issues/18", Class: "housekeeping", Risk: "low", DependsOn: []int{17}, State: boardview.StateOpen},
			}}},
		Certificates: []boardview.Certificate{{Unit: 12, PR: 30, SHA: "3f1c0d9e8b7a65432100fedcba9876543210abcd", URL: u + "/runs/9001", At: boardNow.Add(-5 * time.Hour)}},
	}
}

func TestRenderBoardPage(t *testing.T) {
	tests := []struct {
		file string
		page BoardPage
	}{
		{"boardhtml-board.golden", BoardPage{Title: "aepgate board", Login: "alice", LogoutPath: "/board/logout", Generated: boardNow,
			Repos: []BoardPageRepo{{Repo: "acme/ledger", Kept: true, Board: htmlSampleBoard()}, {Repo: "acme/new"}}}},
		{"boardhtml-off.golden", BoardPage{Title: "aepgate board", Notice: &BoardNotice{Heading: "The board page is off",
			Lines: []string{"Start serve with the App's OAuth client to turn it on:"}, Code: "--client-id Iv1.abc --client-secret-file secret --public-url https://aepgate.example"}}},
		{"boardhtml-signin.golden", BoardPage{Title: "aepgate board", Notice: &BoardNotice{Heading: "Sign in", Lines: []string{"The board shows the repositories you can read."},
			LinkText: "Sign in with GitHub", LinkURL: "/board/login"}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := RenderBoardPage(tt.page)
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", tt.file), got)
		})
	}
}

func TestRenderStatusBoard(t *testing.T) {
	dir := filepath.Join("..", "..", "examples", "ledger-service")
	run, err := rundir.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := RenderStatusBoard("ledger-service", status.Compute(run, "examples/ledger-service"), boardNow)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "boardhtml-status.golden"), got)
}

// TestBoardPageEscapes feeds text anyone may write (issue titles, reasons)
// and a javascript: URL: none becomes markup or a link.
func TestBoardPageEscapes(t *testing.T) {
	b := boardview.Board{Repo: "acme/x", URL: "javascript:alert(1)", Increments: []boardview.Increment{{Title: "<img src=x onerror=alert(1)>", Stories: []boardview.Story{
		{Number: 1, Title: "</svg><script>alert(1)</script>", URL: "javascript:alert(2)", State: boardview.StateBlocked, Reason: `"><b>x</b>`},
	}}}}
	got, err := RenderBoardPage(BoardPage{Title: "t", Repos: []BoardPageRepo{{Repo: "acme/x", Kept: true, Board: b}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<script", "<img", "javascript:", "<b>x"} {
		if strings.Contains(string(got), bad) {
			t.Errorf("page holds %q unescaped", bad)
		}
	}
}

func TestSVGLayers(t *testing.T) {
	tests := []struct {
		name  string
		nodes []BoardGraphNode
		want  map[string]int
	}{
		{"chain and diamond", []BoardGraphNode{{ID: "a"}, {ID: "b", Deps: []string{"a"}}, {ID: "c", Deps: []string{"a"}}, {ID: "d", Deps: []string{"b", "c"}}},
			map[string]int{"a": 0, "b": 1, "c": 1, "d": 2}},
		{"longest path wins", []BoardGraphNode{{ID: "a"}, {ID: "b", Deps: []string{"a"}}, {ID: "c", Deps: []string{"a", "b"}}},
			map[string]int{"a": 0, "b": 1, "c": 2}},
		{"outside dependency ignored", []BoardGraphNode{{ID: "a", Deps: []string{"zz"}}}, map[string]int{"a": 0}},
		{"cycle terminates", []BoardGraphNode{{ID: "a", Deps: []string{"b"}}, {ID: "b", Deps: []string{"a"}}}, map[string]int{"a": 1, "b": 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, svgLayers(tt.nodes)); diff != "" {
				t.Errorf("layers (-want +got):\n%s", diff)
			}
		})
	}
}
