package gates_test

import (
	"testing"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/protocol/gatelog"
)

// TestHoldNeedsLiveWrite: a listed owner whose live permission is read
// cannot /aep hold (every counted command needs write, maintain or admin
// right now); the comment gets a 👎 and aepgate/gates stays green. The
// negative control is the same App without the live-write rule: the HOLD
// then blocks the merge.
func TestHoldNeedsLiveWrite(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rules []gatelog.Rule
		want  string
	}{
		{"refused", nil, "success"},
		{"negative control: without live-write", appkit.WithoutGateRule("live-write"), "action_required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := appkit.NewGatesWorldOpts(t, func(o *app.Options) { o.Seams.GateRules = tc.rules })
			g.Repo.Grant("olivia", "read")
			c := g.Unit.Comment("olivia", "/aep hold stop everything")
			if tc.rules == nil {
				if got := g.WaitReaction(t, c.ID()); len(got) != 1 || got[0] != "-1" {
					t.Errorf("reactions = %v, want [-1]", got)
				}
			}
			g.WaitGates(t, tc.want)
			g.Quiet(t)
			if r := g.Gates(); r.Conclusion != tc.want {
				t.Errorf("aepgate/gates = %s %q, want %s", r.Conclusion, r.Title, tc.want)
			}
		})
	}
}
