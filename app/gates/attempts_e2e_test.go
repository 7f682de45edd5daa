package gates_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestGatesHoldOnAnOldAttemptThroughTheIndex: a HOLD on a unit's first pull
// request holds a pull request opened after 60 more, when the first is
// beyond the snapshot's window of 50 mentions: the sweep made the attempt
// index complete, the deliveries keep it, and the evaluation reads the
// first attempt through it. A pull request whose delivery was lost shows
// up in the next evaluation's window: the index is made incomplete (the
// evaluation pages through the mentions instead) and the HOLD still holds.
func TestGatesHoldOnAnOldAttemptThroughTheIndex(t *testing.T) {
	g := appkit.NewGatesWorld(t)
	ctx := context.Background()
	unit := g.Unit.Number()
	open := func(name string) *ghfake.PR {
		g.Repo.Branch(name, "main")
		g.Repo.Commit(name, "try", map[string]string{name + ".go": "package x\n"})
		return g.Repo.OpenPR("bob", name, "main", name, "Work-unit: #"+strconv.Itoa(unit))
	}
	g.PR.Comment("olivia", "/aep hold rethink the approach")
	g.WaitGates(t, "action_required")
	for i := range 60 {
		open(fmt.Sprintf("try-%d", i))
	}
	g.Quiet(t)
	if err := g.App.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	index := func() ([]int, bool) {
		t.Helper()
		prs, complete, err := g.App.Store().UnitAttempts(ctx, "acme/widgets", unit)
		if err != nil {
			t.Fatal(err)
		}
		return prs, complete
	}
	if prs, complete := index(); len(prs) != 61 || !complete {
		t.Fatalf("after the sweep the index holds %d attempts (complete %v), want 61, complete", len(prs), complete)
	}

	late := open("late")
	g.WaitOn(t, late, "action_required")
	if r := appkit.NewestRunOn(g.Repo, late.Head(), checks.NameGates); !strings.Contains(r.Summary, "rethink the approach") {
		t.Errorf("the late attempt's gates do not show the first attempt's HOLD:\n%s", r.Summary)
	}
	if prs, complete := index(); len(prs) != 62 || !complete {
		t.Errorf("after the late attempt's delivery the index holds %d attempts (complete %v), want 62, complete", len(prs), complete)
	}

	g.Quiet(t)
	g.F.CollectWebhooks(appkit.Secret, g.GHApp) // lost from here on
	lost := open("lost")
	g.F.SendWebhooks(g.Base+"/webhook", appkit.Secret, g.GHApp)
	c := late.Comment("olivia", "/aep recheck")
	g.WaitReaction(t, c.ID())
	if _, complete := index(); complete {
		t.Error("the index stayed complete although it lacks #" + strconv.Itoa(lost.Number()))
	}
	g.WaitOn(t, late, "action_required")
}
