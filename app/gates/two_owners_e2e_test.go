package gates_test

import (
	"strings"
	"testing"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/protocol/approval"
)

// twoOwnersConfig names two owners and asks two of them for an
// irreversible gate (gates.<category>.approvals).
const twoOwnersConfig = "version: 1\nowners: [olivia, oscar]\ncoordinators: [cody]\ngates:\n  irreversible-destructive: {approvals: 2}\n"

// TestGatesTwoOwners: a gate whose category needs two owners stays
// closed when one owner answers twice (the second answer refused, with a
// reply saying another owner must answer) and opens when a second
// distinct owner answers. The negative control counts repeats
// (Seams.Approvals) and watches one owner open it alone.
func TestGatesTwoOwners(t *testing.T) {
	for _, tt := range []struct {
		name     string
		distinct approval.Rules
	}{
		{"the same owner twice is refused", approval.Rules{}},
		{"negative control: repeats counted", approval.Rules{CountRepeats: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := appkit.NewGatesWorldOpts(t, func(o *app.Options) { o.Seams.Approvals = tt.distinct })
			g.Repo.Grant("oscar", "admin")
			g.Repo.Commit("main", "two owners", map[string]string{".github/aepgate.yml": twoOwnersConfig})
			g.Quiet(t)
			g.PR.Comment("cody", "```aep-gate\nid: drop-orders\nquestion: Drop the orders table?\nchoices: [approve, reject]\ncategory: irreversible-destructive\neffect: irreversible-data-change\nscope: merge\nsafe_default: reject\n```\n")
			g.WaitGates(t, "action_required")
			first := g.PR.Comment("olivia", "/aep resolve drop-orders approve")
			if got := g.WaitReaction(t, first.ID()); len(got) != 1 || got[0] != "+1" {
				t.Errorf("reactions on the first answer = %v, want [+1] (it counts)", got)
			}
			r := g.WaitGates(t, "action_required")
			if want := "1 of 2 owners answered `approve`: @olivia; needs another owner"; !strings.Contains(r.Summary, want) {
				t.Errorf("the gates check does not say %q:\n%s", want, r.Summary)
			}
			again := g.PR.Comment("olivia", "/aep resolve drop-orders approve")
			got := g.WaitReaction(t, again.ID())
			if tt.distinct.CountRepeats {
				g.WaitGates(t, "success") // the attack: one owner opened a two-owner gate
				return
			}
			if len(got) != 1 || got[0] != "-1" {
				t.Errorf("reactions on the same owner's second answer = %v, want [-1]", got)
			}
			replies := g.Replies(t, g.PR.Number(), again.ID())
			if len(replies) != 1 || !strings.Contains(replies[0], "olivia already counted") || !strings.Contains(replies[0], "1 more owner(s)") {
				t.Errorf("reply to the second answer = %q, want it to say olivia already counted and another owner must answer", replies)
			}
			g.Settle(t)
			if c := g.Gates().Conclusion; c != "action_required" {
				t.Fatalf("one owner answering twice opened the gate: %s", c)
			}
			g.PR.Comment("oscar", "/aep resolve drop-orders approve")
			g.WaitGates(t, "success")
		})
	}
}
