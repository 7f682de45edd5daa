package board

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/incrementrules"
)

// TestKeepIncrement: a judgement is kept whether or not the repository has
// a board; it schedules an update only when it changed and a board exists
// (a judgement never starts a board).
func TestKeepIncrement(t *testing.T) {
	b := testBoards(t)
	var scheduled int
	b.Queue = func(context.Context, Args) error { scheduled++; return nil }
	ctx := context.Background()
	building := boardview.IncrementFact{Milestone: 1, Stage: incrementrules.Building}
	complete := boardview.IncrementFact{Milestone: 1, Stage: incrementrules.Complete, SHA256: "e", RunID: 9}
	steps := []struct {
		name      string
		before    func()
		fact      boardview.IncrementFact
		scheduled int
	}{
		{"no board yet", func() {}, building, 0},
		{"a board, the same verdict", func() {
			if err := b.DB.SaveBoard(ctx, "acme/app", []byte(`{}`), time.Now()); err != nil {
				t.Fatal(err)
			}
		}, building, 0},
		{"a board, a new verdict", func() {}, complete, 1},
	}
	for _, s := range steps {
		s.before()
		if err := b.KeepIncrement(ctx, 5, "acme", "app", s.fact); err != nil {
			t.Fatal(err)
		}
		if scheduled != s.scheduled {
			t.Errorf("%s: %d updates scheduled, want %d", s.name, scheduled, s.scheduled)
		}
		scheduled = 0
	}
	got, err := b.increments(ctx, "acme/app")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[int]boardview.IncrementFact{1: complete}, got); diff != "" {
		t.Errorf("kept increments (-want +got):\n%s", diff)
	}
}
