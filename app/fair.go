package app

import (
	"context"

	"github.com/aepgate/aepgate/app/webhook"
)

// fairness is what the edge's fair budgets take from the App: GitHub's
// hook ranges and the busy-refusal sweep.
type fairness struct {
	hooks  webhook.HookRanges
	onBusy func()
}

// fairness builds the edge's fair-budget parts; a negative control drops
// the sweep through Options.
func (a *App) fairness() fairness {
	f := fairness{hooks: &a.hooks, onBusy: a.sweeper.busy}
	if a.opts.noBusySweep {
		f.onBusy = nil
	}
	return f
}

// startFairness reads GitHub's hook ranges once (bounded, so a GitHub
// that does not answer delays start-up by hookFirstRead at most), then
// keeps them fresh and sweeps after busy refusals until ctx ends.
func (a *App) startFairness(ctx context.Context) {
	ok := a.readHookRanges(ctx, hookFirstRead)
	go a.watchHookRanges(ctx, ok)
	go a.sweeper.run(ctx, func(err error) {
		if err != nil {
			a.log.Warn("sweep after busy refusals", "err", err)
			return
		}
		a.log.Info("swept after busy refusals")
	})
}
