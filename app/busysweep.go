package app

import (
	"context"
	"time"
)

// DefaultBusySweep is how long after the first `busy` refusal of a period
// the reconcile sweep runs: GitHub does not redeliver a refused delivery,
// so what it carried (a HOLD, say) is picked up by a sweep within a
// minute rather than by the hourly one.
const DefaultBusySweep = 30 * time.Second

// busySweep runs the reconcile sweep after busy refusals: the first
// refusal starts a wait of after, the refusals during the wait are
// covered by the same sweep, and a refusal during the sweep starts the
// next wait.
type busySweep struct {
	signal chan struct{}
	after  time.Duration
	sweep  func(ctx context.Context) error
}

func newBusySweep(after time.Duration, sweep func(context.Context) error) *busySweep {
	return &busySweep{signal: make(chan struct{}, 1), after: after, sweep: sweep}
}

// busy notes a busy refusal; it never blocks (the edge's OnBusy).
func (b *busySweep) busy() {
	select {
	case b.signal <- struct{}{}:
	default:
	}
}

// run sweeps after busy refusals until ctx ends; a failed sweep is
// logged by the sweep itself and waits for the next refusal.
func (b *busySweep) run(ctx context.Context, onSweep func(err error)) {
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
