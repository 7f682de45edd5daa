package gates_test

import (
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
)

// TestAuthoritativeCoordinator: the organization's base lists mallory as a
// coordinator and the repository names cody its one authoritative
// coordinator ({"*": [cody]}). mallory's HOLD is refused in aepgate/gates,
// naming cody, and cody's HOLD blocks. With the authoritative-coordinator
// rule removed (the negative control), mallory's HOLD blocks.
func TestAuthoritativeCoordinator(t *testing.T) {
	base := "version: 1\nowners: [olivia]\nauditors: [ann]\ncoordinators: [mallory]\n"
	cfg := appkit.Extending + "coordinators: {\"*\": [cody]}\n"
	t.Run("another coordinator is refused", func(t *testing.T) {
		g := appkit.NewExtendsWorld(t, base, cfg, nil)
		g.WaitGates(t, "success")
		if got, sum := g.ConfigConclusion(t); got != "valid" {
			t.Fatalf("aepgate/config is %s, want none (valid):\n%s", got, sum)
		}
		hold := g.Unit.Comment("mallory", "/aep hold waiting for legal")
		if got := g.WaitReaction(t, hold.ID()); len(got) != 1 || got[0] != "-1" {
			t.Errorf("reactions = %v, want [-1]", got)
		}
		want := "mallory may not hold: cody is the one authoritative coordinator of this repository (the coordinators scope map), and craft allows one per scope; cody or an owner writes it"
		if !appkit.WaitUntil(10*time.Second, func() bool {
			rs := g.Replies(t, g.Unit.Number(), hold.ID())
			return len(rs) == 1 && strings.Contains(rs[0], want)
		}) {
			t.Fatalf("no one reply saying %q; replies:\n%s", want, strings.Join(g.Replies(t, g.Unit.Number(), hold.ID()), "\n---\n"))
		}
		if got := g.Gates().Conclusion; got != "success" {
			t.Fatalf("after mallory's HOLD aepgate/gates is %s, want success:\n%s", got, g.Gates().Summary)
		}
		g.Unit.Comment("cody", "/aep hold waiting for legal")
		g.WaitGates(t, "action_required")
	})
	t.Run("negative control: without the rule", func(t *testing.T) {
		g := appkit.NewExtendsWorld(t, base, cfg, func(o *app.Options) { o.Seams.GateRules = appkit.WithoutGateRule("authoritative-coordinator") })
		g.WaitGates(t, "success")
		g.Unit.Comment("mallory", "/aep hold waiting for legal")
		g.WaitGates(t, "action_required")
	})
}
