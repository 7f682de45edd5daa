package gatelog

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBuildScenarios(t *testing.T) {
	coordGate := comment(2, "coord[bot]", onPR, 2, gateBlock("deploy-docs", "merge", "Deploy the docs?"))
	coordGate.AuthorType = "Bot"
	tests := []struct {
		name     string
		in       Input
		want     []short_
		blockers []string
	}{
		{"nothing asked", input(comment(1, "mallory", onPR, 1, "LGTM")), []short_{}, []string{}},
		{"owner HOLD on the unit blocks", input(comment(1, "alice", unitIssue, 1, "/aep hold legal review")),
			[]short_{{1, 1, "hold", "unit-hold-13", true}}, []string{"gate-open:unit-hold-13"}},
		{"RESUME lifts it, a re-HOLD mints a new gate", input(
			comment(1, "alice", unitIssue, 1, "/aep hold legal review"),
			comment(2, "alice", onPR, 2, "/aep resume"),
			comment(3, "carol", onPR, 3, "/aep hold flaky deploy")),
			[]short_{{1, 1, "hold", "unit-hold-13", true}, {2, 1, "resume", "unit-hold-13", true}, {3, 1, "hold", fmt.Sprintf("unit-hold-13-%d", at(3).UnixMilli()), true}},
			[]string{fmt.Sprintf("gate-open:unit-hold-13-%d", at(3).UnixMilli())}},
		{"second HOLD while on HOLD", input(comment(1, "alice", unitIssue, 1, "/aep hold a"), comment(2, "carol", onPR, 2, "/aep hold b")),
			[]short_{{1, 1, "hold", "unit-hold-13", true}, {2, 1, "hold", "unit-hold-13", true}}, []string{"gate-open:unit-hold-13"}},
		{"resume with no unit HOLD", input(comment(1, "alice", onPR, 1, "/aep resume")), []short_{{1, 1, "resume", "", false}}, []string{}},
		{"project HOLD on the control issue blocks every unit", input(comment(1, "carol", control, 1, "/aep hold freeze")),
			[]short_{{1, 1, "hold", "project-hold", true}}, []string{"gate-open:project-hold"}},
		{"project RESUME on the control issue", input(comment(1, "carol", control, 1, "/aep hold freeze"), comment(2, "alice", control, 2, "/aep resume")),
			[]short_{{1, 1, "hold", "project-hold", true}, {2, 1, "resume", "project-hold", true}}, []string{}},
		{"coordinator's gate blocks until the owner resolves", input(coordGate), []short_{{2, 3, "open-gate", "deploy-docs", true}}, []string{"gate-open:deploy-docs"}},
		{"owner resolves with a listed choice", input(coordGate, comment(3, "alice", unitIssue, 3, "/aep resolve deploy-docs approve")),
			[]short_{{2, 3, "open-gate", "deploy-docs", true}, {3, 1, "resolve", "deploy-docs", true}}, []string{}},
		{"choice not offered", input(coordGate, comment(3, "alice", onPR, 3, "/aep resolve deploy-docs ship")),
			[]short_{{2, 3, "open-gate", "deploy-docs", true}, {3, 1, "resolve", "deploy-docs", false}}, []string{"gate-open:deploy-docs"}},
		{"owner's safe default keeps blocking", input(coordGate, comment(3, "alice", onPR, 3, "/aep resolve deploy-docs reject")),
			[]short_{{2, 3, "open-gate", "deploy-docs", true}, {3, 1, "resolve", "deploy-docs", true}}, []string{"gate-answered-safe-default:deploy-docs"}},
		{"approving review at the head answers merge gates", input(coordGate, review(3, "alice", onPR, 3, ReviewApproved, headA, "")),
			[]short_{{2, 3, "open-gate", "deploy-docs", true}, {3, 0, "approve", "deploy-docs", true}}, []string{}},
		{"approving review at an older head does not count", input(coordGate, review(3, "alice", onPR, 3, ReviewApproved, headB, "")),
			[]short_{{2, 3, "open-gate", "deploy-docs", true}, {3, 0, "approve", "deploy-docs", false}}, []string{"gate-open:deploy-docs"}},
		{"approval before the gate was opened does not answer it", input(review(1, "alice", onPR, 1, ReviewApproved, headA, ""), coordGate),
			[]short_{{2, 3, "open-gate", "deploy-docs", true}}, []string{"gate-open:deploy-docs"}},
		{"resolve inside a review body", input(coordGate, review(3, "alice", onPR, 3, ReviewCommented, headB, "/aep resolve deploy-docs approve")),
			[]short_{{2, 3, "open-gate", "deploy-docs", true}, {3, 1, "resolve", "deploy-docs", true}}, []string{}},
		{"same decision asked twice is reused", input(coordGate, comment(3, "carol", onPR, 3, gateBlock("again", "merge", "Deploy the docs?"))),
			[]short_{{2, 3, "open-gate", "deploy-docs", true}, {3, 3, "open-gate", "deploy-docs", true}}, []string{"gate-open:deploy-docs"}},
		{"an answered decision stays answered", input(coordGate, comment(3, "alice", onPR, 3, "/aep resolve deploy-docs approve"), comment(4, "carol", onPR, 4, gateBlock("again", "merge", "Deploy the docs?"))),
			[]short_{{2, 3, "open-gate", "deploy-docs", true}, {3, 1, "resolve", "deploy-docs", true}, {4, 3, "open-gate", "deploy-docs", true}}, []string{}},
		{"gate without id gets one from the comment", input(comment(5, "carol", onPR, 1, gateBlock("", "", "Use the paid API?"))),
			[]short_{{5, 3, "open-gate", "gate-5-1", true}}, []string{"gate-open:gate-5-1"}},
		{"project gate on the control issue", input(comment(1, "carol", control, 1, gateBlock("freeze", "project", "Freeze releases?"))),
			[]short_{{1, 3, "open-gate", "freeze", true}}, []string{"gate-open:freeze"}},
		{"project gate elsewhere is refused", input(comment(1, "carol", onPR, 1, gateBlock("freeze", "project", "Freeze releases?"))),
			[]short_{{1, 3, "open-gate", "freeze", false}}, []string{}},
		{"malformed block is refused", input(comment(1, "carol", onPR, 1, "```aep-gate\nquestion: Q?\n```")),
			[]short_{{1, 1, "open-gate", "", false}}, []string{}},
		{"malformed command is refused", input(comment(1, "alice", onPR, 1, "/aep approve it")), []short_{{1, 1, "", "", false}}, []string{}},
		{"status and recheck change nothing", input(comment(1, "carol", onPR, 1, "/aep status\n/aep recheck")),
			[]short_{{1, 1, "status", "", true}, {1, 2, "recheck", "", true}}, []string{}},
		{"the App's own replies are skipped", input(with(comment(1, "aepgate[bot]", onPR, 1, "/aep resume"), func(i *Item) { i.AuthorType = "Bot" })), []short_{}, []string{}},
		{"unknown gate", input(comment(1, "alice", onPR, 1, "/aep resolve nope approve")), []short_{{1, 1, "resolve", "nope", false}}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Build(tt.in)
			if diff := cmp.Diff(tt.want, shorts(r.Outcomes)); diff != "" {
				t.Errorf("outcomes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.blockers, tokens(r)); diff != "" {
				t.Errorf("blockers (-want +got):\n%s", diff)
			}
			for _, o := range r.Outcomes {
				if !o.Accepted && o.Reason == "" {
					t.Errorf("refused outcome %+v has no reason", o)
				}
			}
		})
	}
}

func TestContractGate(t *testing.T) {
	in := input()
	in.PullRequests = []PullRequestState{
		{Number: 21, Head: headA, HeadAt: at(1), ContractFiles: []string{".github/aepgate.yml"}},
		{Number: 22, Head: headB, HeadAt: at(1), ContractFiles: []string{"plans/x/progress.json"}},
	}
	idA, idB := ContractGateID(21, headA), ContractGateID(22, headB)
	tests := []struct {
		name  string
		items []Item
		pr    int
		want  []string
	}{
		{"blocks its own pull request only", nil, 21, []string{"gate-open:" + idA}},
		{"pr 0 sees every gate", nil, 0, []string{"gate-open:" + idA, "gate-open:" + idB}},
		{"owner approval at the head answers it", []Item{review(1, "alice", onPR, 2, ReviewApproved, headA, "")}, 21, []string{}},
		{"approval on another pull request does not", []Item{review(1, "alice", onPR22, 2, ReviewApproved, headB, "")}, 21, []string{"gate-open:" + idA}},
		{"reject keeps it blocking", []Item{comment(1, "alice", onPR, 2, "/aep resolve "+idA+" reject")}, 21, []string{"gate-answered-safe-default:" + idA}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in.Items, in.PR = tt.items, tt.pr
			if diff := cmp.Diff(tt.want, tokens(Build(in))); diff != "" {
				t.Errorf("blockers (-want +got):\n%s", diff)
			}
		})
	}
	if idA != "contract-pr21-aaaaaaaaaaaa" || ContractGateID(21, headB) == idA {
		t.Errorf("ContractGateID = %q; a new head must give a new id", idA)
	}
	if _, ok := ContractGate(13, 21, headA, nil, at(0)); ok {
		t.Error("ContractGate without files opened a gate")
	}
	files := make([]string, 12)
	for i := range files {
		files[i] = fmt.Sprintf("f%d", i)
	}
	ev, _ := ContractGate(13, 21, headA, files, at(0))
	if !strings.HasSuffix(ev.Question, "f9 and 2 more. Approve these changes?") || ev.BlockingScope != "merge" || *ev.WorkUnit != "13" {
		t.Errorf("ContractGate = %+v", ev)
	}
}

func TestBuildOrder(t *testing.T) {
	hold := comment(2, "alice", onPR, 1, "/aep hold x")
	resume := comment(1, "alice", onPR, 1, "/aep resume")
	// Same second: ID 1 (resume) comes first, so there is nothing to resume
	// and the HOLD stands, whatever order the items arrive in.
	for _, items := range [][]Item{{hold, resume}, {resume, hold}} {
		r := Build(input(items...))
		if diff := cmp.Diff([]string{"gate-open:unit-hold-13"}, tokens(r)); diff != "" {
			t.Errorf("blockers (-want +got):\n%s", diff)
		}
		if r.Outcomes[0].ItemID != 1 {
			t.Errorf("first outcome is item %d; want 1", r.Outcomes[0].ItemID)
		}
	}
}
