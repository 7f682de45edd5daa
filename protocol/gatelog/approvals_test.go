package gatelog

import (
	"testing"

	distinct "github.com/aepgate/aepgate/protocol/approval"
	"github.com/aepgate/aepgate/protocol/gate"
)

// TestTwoOwnersThroughReviewsAndComments: with two owners needed for the
// gate's category (Policy.Approvals), an owner's approving review and the
// same owner's resolve are one answer, in either order; a second owner's
// review opens the gate. The negative control counts repeats
// (Policy.Distinct) and watches one owner open it alone.
func TestTwoOwnersThroughReviewsAndComments(t *testing.T) {
	opened := comment(1, "carol", onPR, 1, gateBlock("deploy", "merge", "Deploy the export?"))
	aliceReview := review(2, "alice", onPR, 2, ReviewApproved, headA, "")
	aliceResolve := comment(3, "alice", onPR, 3, "/aep resolve deploy approve")
	resolveFirst := comment(2, "alice", onPR, 2, "/aep resolve deploy approve")
	reviewAfter := review(3, "alice", onPR, 3, ReviewApproved, headA, "")
	bobReview := review(4, "bob", onPR, 4, ReviewApproved, headA, "")
	tests := []struct {
		name  string
		items []Item
		rules distinct.Rules
		want  string
	}{
		{"one owner's review", []Item{opened, aliceReview}, distinct.Rules{}, gate.StateOpen},
		{"one owner's review, then their resolve", []Item{opened, aliceReview, aliceResolve}, distinct.Rules{}, gate.StateOpen},
		{"one owner's resolve, then their review", []Item{opened, resolveFirst, reviewAfter}, distinct.Rules{}, gate.StateOpen},
		{"two owners' reviews", []Item{opened, aliceReview, bobReview}, distinct.Rules{}, gate.StateResolved},
		{"one owner's answer and a second owner's review", []Item{opened, aliceReview, aliceResolve, bobReview}, distinct.Rules{}, gate.StateResolved},
		{"negative control: repeats counted", []Item{opened, aliceReview, aliceResolve}, distinct.Rules{CountRepeats: true}, gate.StateResolved},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := input(tt.items...)
			in.Policy.Owners = []string{"alice", "bob"}
			in.Permissions["bob"] = "admin"
			in.Policy.Approvals = map[string]int{"human-product-judgment-action": 2}
			in.Policy.Distinct = tt.rules
			r := Build(in)
			if got := gateState(r, "deploy"); got != tt.want {
				t.Errorf("gate state = %q, want %q; outcomes %+v", got, tt.want, r.Outcomes)
			}
		})
	}
}
