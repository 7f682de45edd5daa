package gatelog

import (
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/gate"
	"github.com/google/go-cmp/cmp"
)

// siblings is input with pull request 22 (at headB) beside 21: both
// attempt unit 13, and PR is the one whose merge is judged.
func siblings(pr int, items ...Item) Input {
	in := input(items...)
	in.PR = pr
	in.PullRequests = append(in.PullRequests, PullRequestState{Number: 22, Head: headB, HeadAt: at(0)})
	return in
}

// gateState is the replayed state of gate id, "" when there is none.
func gateState(r Result, id string) string {
	for _, g := range r.State.Gates {
		if g.GateID == id {
			return g.State
		}
	}
	return ""
}

// TestApprovalAnswersItsOwnPR: an owner's approving review answers only
// the gates opened on its own pull request; a gate opened on a sibling
// pull request or the unit's issue needs a resolve command, which may
// stand in the review's body.
func TestApprovalAnswersItsOwnPR(t *testing.T) {
	onReal := comment(1, "carol", onPR, 1, gateBlock("deploy", "merge", "Deploy the export?"))
	onIssue := comment(1, "carol", unitIssue, 1, gateBlock("deploy", "merge", "Deploy the export?"))
	tests := []struct {
		name   string
		in     Input
		want   string // the gate's state after the replay
		reason string // a refused approval's reason, "" when none
	}{
		{"approval on the gate's own pull request", siblings(21, onReal, review(2, "alice", onPR, 2, ReviewApproved, headA, "")), gate.StateResolved, ""},
		{"approval on a sibling pull request", siblings(21, onReal, review(2, "alice", onPR22, 2, ReviewApproved, headB, "Typo fixed.")), gate.StateOpen,
			"gate deploy was opened on pull request #21, not on this pull request (#22); an approving review answers only its own pull request's gates, because it approves this diff: answer the gate with `/aep resolve deploy approve`"},
		{"approval of a unit-issue gate", siblings(21, onIssue, review(2, "alice", onPR, 2, ReviewApproved, headA, "")), gate.StateOpen,
			"gate deploy was opened on the unit's issue #13, not on this pull request (#21); an approving review answers only its own pull request's gates, because it approves this diff: answer the gate with `/aep resolve deploy approve`"},
		{"a sibling's approval naming the gate", siblings(21, onReal, review(2, "alice", onPR22, 2, ReviewApproved, headB, "/aep resolve deploy approve")), gate.StateResolved, ""},
		{"a resolve command on the unit's issue", siblings(21, onIssue, comment(2, "alice", unitIssue, 2, "/aep resolve deploy approve")), gate.StateResolved, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Build(tt.in)
			reason := ""
			for _, o := range r.Outcomes {
				if o.Action == ActionApprove && !o.Accepted {
					reason = o.Reason
				}
			}
			if diff := cmp.Diff(tt.want+"|"+tt.reason, gateState(r, "deploy")+"|"+reason); diff != "" {
				t.Errorf("state|reason (-want +got):\n%s", diff)
			}
		})
	}
}

// TestApprovalOwnPRNegativeControl: without approval-own-pr a sibling's
// approval answers the real pull request's irreversible gate and unblocks
// its merge, and a pull request's approval answers the unit issue's gate.
func TestApprovalOwnPRNegativeControl(t *testing.T) {
	tests := []struct {
		name string
		in   Input
	}{
		{"sibling", siblings(21, comment(1, "carol", onPR, 1, gateBlock("deploy", "merge", "Deploy?")), review(2, "alice", onPR22, 2, ReviewApproved, headB, ""))},
		{"unit issue", siblings(21, comment(1, "carol", unitIssue, 1, gateBlock("deploy", "merge", "Deploy?")), review(2, "alice", onPR, 2, ReviewApproved, headA, ""))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if r := Build(tt.in); unblocked(r) {
				t.Fatalf("with every rule the approval answered the gate: %+v", r.Outcomes)
			}
			if r := BuildWith(tt.in, without("approval-own-pr")); !unblocked(r) {
				t.Errorf("without approval-own-pr the gate still blocks: %+v", r.Blockers)
			}
		})
	}
}

// TestApprovalOwnPRUnknownOrigin: a gate whose origin the builder never
// saw is not answered by an approval.
func TestApprovalOwnPRUnknownOrigin(t *testing.T) {
	a := Attempt{Item: review(2, "alice", onPR, 2, ReviewApproved, headA, ""), Action: ActionApprove, GateID: "g", Target: &Target{}, In: &Input{}}
	if got := ApprovalOwnPR(a); !strings.Contains(got, "an unknown thread") {
		t.Errorf("ApprovalOwnPR with no origin = %q", got)
	}
	a.Action = ActionResolve
	if got := ApprovalOwnPR(a); got != "" {
		t.Errorf("a resolve command is not this rule's business: %q", got)
	}
}
