package increment_test

import (
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
)

// TestIncrementSweepFlagsMissedClosure: the coordinator closes the
// milestone while a story is open and its milestone.closed delivery is
// lost; the reconcile sweep finds the closure, flags it as milestone.closed
// would (one comment; with closure.reopen the milestone reopened), and a
// second sweep adds nothing. A complete increment's missed closure is
// recorded, not flagged. The negative control sweeps the open milestones
// only, as before: the closure is never flagged.
func TestIncrementSweepFlagsMissedClosure(t *testing.T) {
	tests := []struct {
		name     string
		reopen   bool
		openOnly bool
		want     int
	}{
		{"flagged", false, false, 1},
		{"reopened", true, false, 1},
		{"negative control: open milestones only", false, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			yaml := appkit.IncrementYAML
			if tt.reopen {
				yaml += "closure:\n  reopen: true\n"
			}
			w := appkit.NewIncrementWorldWith(t, yaml, "", nil, func(o *app.Options) { o.Seams.OpenMilestonesOnly = tt.openOnly })
			w.Certified(t, 0)
			w.Lose(t, func() { w.MS.CloseBy("carl") })
			if n := w.ClosedComments(t); n != 0 {
				t.Fatalf("%d comments before the sweep: the closure was not lost", n)
			}
			st := w.F.Stats()
			w.Sweep(t)
			w.CostSince(t, "the sweep that found the closure (all its work)", st)
			if n := w.ClosedComments(t); n != tt.want {
				t.Fatalf("%d comments flagging the missed closure, want %d", n, tt.want)
			}
			if tt.want == 0 {
				return
			}
			body := w.Control.Comments()[len(w.Control.Comments())-1].Body
			if !strings.Contains(body, "missed the closure's event") || !strings.Contains(body, "story #3 is not done yet") {
				t.Errorf("the comment does not say what happened and what is missing:\n%s", body)
			}
			if w.MS.Open() != tt.reopen {
				t.Errorf("milestone open %v, want %v", w.MS.Open(), tt.reopen)
			}
			if !tt.reopen {
				appkit.WaitFor(t, 10*time.Second, "the board's inbox listing the milestone", func() bool { return w.BoardShows(t, "milestone closed early") })
			}
			st = w.F.Stats()
			w.Sweep(t)
			w.CostSince(t, "the next sweep (all its work)", st)
			if n := w.ClosedComments(t); n != 1 {
				t.Errorf("a second sweep: %d comments, want 1", n)
			}
			if n := w.LedgerRows(t, "increment_closed_early"); n != 1 {
				t.Errorf("%d increment_closed_early rows, want 1", n)
			}
		})
	}
	t.Run("complete", func(t *testing.T) {
		w := newIncrementWorld(t, "", nil)
		last := w.CertifiedAll(t)
		if _, ok := w.Complete(t, last); !ok {
			t.Fatal("not complete")
		}
		w.Lose(t, func() { w.MS.CloseBy("olivia") })
		w.Sweep(t)
		if n := w.ClosedComments(t); n != 0 {
			t.Errorf("a complete increment's missed closure was flagged %d times", n)
		}
		if n := w.LedgerRows(t, "increment_closed_complete"); n != 1 {
			t.Errorf("%d increment_closed_complete rows, want 1", n)
		}
		st := w.F.Stats()
		w.Sweep(t)
		w.CostSince(t, "a later sweep (all its work, the closure answered)", st)
		if n := w.LedgerRows(t, "increment_closed_complete"); n != 1 {
			t.Errorf("a second sweep: %d increment_closed_complete rows, want 1", n)
		}
	})
}
