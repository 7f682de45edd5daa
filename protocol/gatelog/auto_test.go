package gatelog

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/gate"
)

// TestAutoGates: aepgate's own gates of a pull request (e.g. an audit's
// owner decision) block its merge from their time on, only its own, and an
// owner answers them like any gate; nobody can open one by hand.
func TestAutoGates(t *testing.T) {
	wu := "13"
	auto := gate.Event{Type: gate.EventCreate, Time: at(5), Actor: "aepgate", GateID: AutoPrefix + "audit-pr21", WorkUnit: &wu,
		Question: "Accept the high-risk change?", Choices: gate.Choices{ChoiceApprove, ChoiceReject}, ExternalEffect: "merge-protected-branch",
		OwnerOnlyCategory: "human-product-judgment-action", BlockingScope: gate.ScopeMerge, SafeDefault: ChoiceReject}
	tests := []struct {
		name  string
		items []Item
		pr    int
		want  []string
	}{
		{"blocks its pull request", nil, 21, []string{"gate-open:auto-audit-pr21"}},
		{"not another's", nil, 22, []string{}},
		{"an owner's resolve answers it", []Item{comment(1, "alice", onPR, 6, "/aep resolve auto-audit-pr21 approve")}, 21, []string{}},
		{"an owner's approval at the head answers it", []Item{review(1, "alice", onPR, 6, ReviewApproved, headA, "")}, 21, []string{}},
		{"an answer before it was opened does not", []Item{comment(1, "alice", onPR, 4, "/aep resolve auto-audit-pr21 approve")}, 21, []string{"gate-open:auto-audit-pr21"}},
		{"a coordinator's resolve does not", []Item{comment(1, "carol", onPR, 6, "/aep resolve auto-audit-pr21 approve")}, 21, []string{"gate-open:auto-audit-pr21"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := input(tt.items...)
			in.PullRequests = []PullRequestState{{Number: 21, Head: headA, HeadAt: at(1), Auto: []gate.Event{auto}}}
			in.PR = tt.pr
			if diff := cmp.Diff(tt.want, tokens(Build(in))); diff != "" {
				t.Errorf("blockers (-want +got):\n%s", diff)
			}
		})
	}
	in := input(comment(1, "carol", onPR, 2, "```aep-gate\nid: auto-audit-pr21\nquestion: Pre-empt?\nchoices: [approve, reject]\ncategory: human-product-judgment-action\neffect: product-direction-decision\n```\n"))
	res := Build(in)
	if len(res.Outcomes) != 1 || res.Outcomes[0].Accepted {
		t.Errorf("a hand-made gate under the auto- prefix: %+v", res.Outcomes)
	}
}

// TestDisposeIsNotAGateCommand: a dispose command belongs to the audit; the
// gate log neither acts on it nor refuses it.
func TestDisposeIsNotAGateCommand(t *testing.T) {
	res := Build(input(comment(1, "mallory", onPR, 2, "/aep dispose F1@r7 fixed -- renamed the field")))
	if len(res.Outcomes) != 0 || len(res.Log.Events) != 0 {
		t.Errorf("outcomes %+v, events %+v; want none", res.Outcomes, res.Log.Events)
	}
}
