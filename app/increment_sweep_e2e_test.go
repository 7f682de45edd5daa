package app_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v62/github"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// boardShows reports whether the repository's board issue holds want.
func (w *incrementWorld) boardShows(t *testing.T, want string) bool {
	t.Helper()
	is, _, err := w.F.Client(w.Inst.Token()).Issues.ListByRepo(context.Background(), "acme", "widgets",
		&github.IssueListByRepoOptions{Labels: []string{checks.BoardLabel}, State: "all"})
	if err != nil {
		t.Fatal(err)
	}
	return len(is) == 1 && strings.Contains(is[0].GetBody(), want)
}

// lose runs act with the fake's webhooks collected, not sent: the App
// never hears of what act does.
func (w *incrementWorld) lose(t *testing.T, act func()) {
	t.Helper()
	w.Quiet(t)
	w.F.CollectWebhooks(appkit.Secret, w.GHApp)
	act()
	w.F.Deliveries()
	w.F.SendWebhooks(w.Base+"/webhook", appkit.Secret, w.GHApp)
}

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
			yaml := incrementYAML
			if tt.reopen {
				yaml += "closure:\n  reopen: true\n"
			}
			w := newIncrementWorldWith(t, yaml, "", nil, func(o *app.Options) { o.Seams.OpenMilestonesOnly = tt.openOnly })
			w.certified(t, 0)
			w.lose(t, func() { w.ms.CloseBy("carl") })
			if n := w.closedComments(t); n != 0 {
				t.Fatalf("%d comments before the sweep: the closure was not lost", n)
			}
			st := w.F.Stats()
			w.sweep(t)
			w.costSince(t, "the sweep that found the closure (all its work)", st)
			if n := w.closedComments(t); n != tt.want {
				t.Fatalf("%d comments flagging the missed closure, want %d", n, tt.want)
			}
			if tt.want == 0 {
				return
			}
			body := w.control.Comments()[len(w.control.Comments())-1].Body
			if !strings.Contains(body, "missed the closure's event") || !strings.Contains(body, "story #3 is not done yet") {
				t.Errorf("the comment does not say what happened and what is missing:\n%s", body)
			}
			if w.ms.Open() != tt.reopen {
				t.Errorf("milestone open %v, want %v", w.ms.Open(), tt.reopen)
			}
			if !tt.reopen {
				appkit.WaitFor(t, 10*time.Second, "the board's inbox listing the milestone", func() bool { return w.boardShows(t, "milestone closed early") })
			}
			st = w.F.Stats()
			w.sweep(t)
			w.costSince(t, "the next sweep (all its work)", st)
			if n := w.closedComments(t); n != 1 {
				t.Errorf("a second sweep: %d comments, want 1", n)
			}
			if n := w.ledgerRows(t, "increment_closed_early"); n != 1 {
				t.Errorf("%d increment_closed_early rows, want 1", n)
			}
		})
	}
	t.Run("complete", func(t *testing.T) {
		w := newIncrementWorld(t, "", nil)
		last := w.certifiedAll(t)
		if _, ok := w.complete(t, last); !ok {
			t.Fatal("not complete")
		}
		w.lose(t, func() { w.ms.CloseBy("olivia") })
		w.sweep(t)
		if n := w.closedComments(t); n != 0 {
			t.Errorf("a complete increment's missed closure was flagged %d times", n)
		}
		if n := w.ledgerRows(t, "increment_closed_complete"); n != 1 {
			t.Errorf("%d increment_closed_complete rows, want 1", n)
		}
		st := w.F.Stats()
		w.sweep(t)
		w.costSince(t, "a later sweep (all its work, the closure answered)", st)
		if n := w.ledgerRows(t, "increment_closed_complete"); n != 1 {
			t.Errorf("a second sweep: %d increment_closed_complete rows, want 1", n)
		}
	})
}

// costSince logs the requests made since before, by route: what a test
// reports as an event's API cost.
func (w *incrementWorld) costSince(t *testing.T, what string, before ghfake.Stats) {
	t.Helper()
	now := w.F.Stats()
	var parts []string
	for route, n := range now.ByRoute {
		if d := n - before.ByRoute[route]; d > 0 {
			parts = append(parts, fmt.Sprintf("%s ×%d", route, d))
		}
	}
	slices.Sort(parts)
	t.Logf("%s: %s", what, strings.Join(parts, ", "))
}
