package webhook

import (
	"context"
	"time"
)

// DefaultBusySweep is how long after the first `busy` refusal of a period
// the reconcile sweep runs: GitHub does not redeliver a refused delivery,
// so what it carried (a HOLD, say) is picked up by a sweep within a
// minute rather than by the hourly one.
const DefaultBusySweep = 30 * time.Second

// BusySweep runs the App's reconcile sweep after busy refusals (the edge's
// OnBusy): the first refusal starts a wait of after, the refusals during
// the wait are covered by the same sweep, and a refusal during the sweep
// starts the next wait.
type BusySweep struct {
	signal chan struct{}
	after  time.Duration
	sweep  func(ctx context.Context) error
}

// NewBusySweep is a BusySweep that runs sweep after busy refusals, once
// Run runs.
func NewBusySweep(after time.Duration, sweep func(context.Context) error) *BusySweep {
	return &BusySweep{signal: make(chan struct{}, 1), after: after, sweep: sweep}
}

// Busy notes a busy refusal; it never blocks (the edge's OnBusy).
func (b *BusySweep) Busy() {
	select {
	case b.signal <- struct{}{}:
	default:
	}
}

// Run sweeps after busy refusals until ctx ends, telling onSweep each
// sweep's error; a failed sweep waits for the next refusal.
func (b *BusySweep) Run(ctx context.Context, onSweep func(err error)) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-b.signal:
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(b.after):
		}
		select {
		case <-b.signal: // covered by this sweep
		default:
		}
		onSweep(b.sweep(ctx))
	}
}
