package gates_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/gatelog"
)

// siblingConfig is gatesConfig allowing two attempts at one unit.
const siblingConfig = appkit.GatesConfig + "limits:\n  attempts_per_unit: 2\n"

// irreversibleGate is the real pull request's merge gate, opened by the
// coordinator on that pull request.
const irreversibleGate = "Before merging:\n\n```aep-gate\nid: drop-legacy\nquestion: Drop the legacy column?\nchoices: [approve, reject]\ncategory: irreversible-destructive\neffect: irreversible-data-change\nscope: merge\n```\n"

// newSiblingWorld is a gates world whose unit has the real pull request
// (g.pr) blocked by an irreversible merge gate opened on it, and a
// one-file typo pull request naming the same unit; rules replaces the
// gate rules when set.
func newSiblingWorld(t *testing.T, rules []gatelog.Rule) (*appkit.GatesWorld, *ghfake.PR) {
	t.Helper()
	w := appkit.NewLiveOpts(t, true, func(o *app.Options) { o.Seams.GateRules = rules })
	w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": siblingConfig})
	w.Repo.Grant("olivia", "admin")
	w.Repo.Grant("cody", "write")
	g := &appkit.GatesWorld{Live: w, GH: w.F.Client(w.Inst.Token())}
	g.Unit, g.PR = g.UnitAndPR("real")
	g.WaitGates(t, "success")
	g.PR.Comment("cody", irreversibleGate)
	g.WaitGates(t, "action_required")
	w.Repo.Branch("typo", "main")
	w.Repo.Commit("typo", "typo", map[string]string{"README.md": "Fixed a typo.\n"})
	typo := w.Repo.OpenPR("bob", "typo", "main", "Fix a typo", "Work-unit: #"+strconv.Itoa(g.Unit.Number()))
	return g, typo
}

// TestGatesSiblingApprovalDoesNotAnswer: the owner approves a one-file
// typo pull request naming the same unit; the real pull request's
// irreversible merge gate stays open, because the owner approved a
// different diff. Answering it by name (/aep resolve) works. Without the
// approval-own-pr rule the sibling's approval turns the real gate green.
func TestGatesSiblingApprovalDoesNotAnswer(t *testing.T) {
	t.Run("refused", func(t *testing.T) {
		g, typo := newSiblingWorld(t, nil)
		typo.SubmitReview("olivia", "APPROVED", "Typo fix is fine.")
		appkit.WaitFor(t, 10*time.Second, "the typo's gates judged", func() bool {
			r := appkit.NewestRunOn(g.Repo, typo.Head(), checks.NameGates)
			return r != nil && strings.Contains(r.Summary, "drop-legacy")
		})
		g.Settle(t)
		if r := g.Gates(); r.Conclusion != "action_required" {
			t.Fatalf("a sibling's approval answered the real gate: %s\n%s", r.Conclusion, r.Summary)
		}
		g.PR.Comment("olivia", "/aep resolve drop-legacy approve")
		g.WaitGates(t, "success")
	})
	t.Run("negative control: without approval-own-pr", func(t *testing.T) {
		rules := slices.DeleteFunc(gatelog.DefaultRules(), func(r gatelog.Rule) bool { return r.Name == "approval-own-pr" })
		g, typo := newSiblingWorld(t, rules)
		typo.SubmitReview("olivia", "APPROVED", "Typo fix is fine.")
		g.WaitGates(t, "success")
	})
}
