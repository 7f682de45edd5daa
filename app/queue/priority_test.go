package queue

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
)

// TestDeliveryCallsAreOwnWork: a delivery job's GitHub calls carry
// gh.PriorityOwn, so the budget sends them before queued fan-out and
// sweep calls (internal/gh TestBudgetOwnWorkOvertakesQueuedFanout).
func TestDeliveryCallsAreOwnWork(t *testing.T) {
	var got gh.Priority = -1
	run := Retrying(func(ctx context.Context, _ Delivery, _ *slog.Logger) error {
		got = gh.PriorityOf(ctx)
		return nil
	}, func(string, string, time.Duration) {}, slog.New(slog.DiscardHandler))
	if err := run(context.Background(), Delivery{DeliveryID: "d", Event: "pull_request"}, 1); err != nil {
		t.Fatal(err)
	}
	if got != gh.PriorityOwn {
		t.Errorf("a delivery's calls have priority %s, want %s", got, gh.PriorityOwn)
	}
}

// TestSweepCallsAreBackground: the sweep's GitHub calls carry
// gh.PriorityBackground, behind every other work's.
func TestSweepCallsAreBackground(t *testing.T) {
	var got gh.Priority = -1
	s := Sweep{DB: tempDB(t), Installations: func(context.Context) ([]int64, error) { return []int64{1}, nil },
		Installation: func(ctx context.Context, _ int64) error { got = gh.PriorityOf(ctx); return nil },
		Job:          func(string, string, time.Duration) {}, Log: slog.New(slog.DiscardHandler)}
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got != gh.PriorityBackground {
		t.Errorf("the sweep's calls have priority %s, want %s", got, gh.PriorityBackground)
	}
}
