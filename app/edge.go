package app

import (
	"context"
	"net"
	"net/http"

	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/app/ready"
	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/gh"
)

// The edge's bounds, as the command line shows them (app/webhook).
const (
	// DefaultMaxConns bounds the connections the App holds at once.
	DefaultMaxConns = webhook.DefaultMaxConns
	// DefaultBusySweep is how long after a busy refusal the sweep runs.
	DefaultBusySweep = webhook.DefaultBusySweep
)

// edge is the App's HTTP edge (package app/webhook) and what serves it.
type edge struct {
	webhook http.Handler
	// batcher commits the edge's verified deliveries in batches.
	batcher *webhook.Batcher
	// hooks are GitHub's hook ranges, read by Run.
	hooks *webhook.HookCache
	// sweeper sweeps after the edge's busy refusals.
	sweeper *webhook.BusySweep
	// github is whether GitHub accepted the App's credentials (/readyz).
	github *ready.GitHub
}

// newEdge builds the App's edge: the batcher on the queue, GitHub's hook
// ranges, the sweep after busy refusals, the credentials check of /readyz
// and the webhook edge, with the App's secrets, metrics and log, the
// events it handles and what their jobs read of a body (their payload
// views, which the edge keeps of it).
func (a *App) newEdge(yield *queue.Yield) error {
	o, e := a.opts, &a.edge
	e.batcher = webhook.NewBatcher(a.queue, webhook.BatchConfig{Size: o.BatchSize, Wait: o.BatchWait,
		Observe: yield.Observe(a.metrics.Batch), Options: o.Seams.Batch})
	e.hooks = &webhook.HookCache{Read: a.clients.HookRanges, Log: a.log, Configured: o.GitHubHookAddresses}
	e.sweeper = webhook.NewBusySweep(o.BusySweep, a.runReconcile)
	e.github = &ready.GitHub{Identity: a.clients.Identity, Log: a.log, Recheck: o.AuthRecheck}
	onBusy := e.sweeper.Busy
	if o.Seams.NoBusySweep {
		onBusy = nil
	}
	var err error
	e.webhook, err = webhook.New(webhook.Config{
		Secrets: o.WebhookSecrets, Queue: e.batcher, Handled: a.features.families.Handles, Views: a.features.families.Views,
		Metrics: webhook.Metrics{Delivery: a.metrics.Delivery, Unverified: a.metrics.Unverified},
		Log:     a.log, TrustedProxies: o.TrustedProxies, Hooks: e.hooks, OnBusy: onBusy, Options: o.Seams.Edge,
	})
	if err != nil {
		e.batcher.Close()
	}
	return err
}

// serveEdge reads GitHub's hook ranges once (bounded, so a GitHub that does not answer delays
// start-up by webhook.HookFirstRead at most), then keeps them fresh, sweeps after busy refusals,
// has GitHub redeliver what it could not deliver (app/redeliver) and checks the App's credentials
// until ctx ends; it returns the server for ln, which holds at most Options.MaxConns connections.
func (a *App) serveEdge(ctx context.Context, ln net.Listener) (*http.Server, net.Listener) {
	ok := a.edge.hooks.Refresh(ctx, webhook.HookFirstRead)
	go a.edge.hooks.Watch(ctx, ok)
	go a.edge.sweeper.Run(ctx, func(err error) {
		if err != nil {
			a.log.Warn("sweep after busy refusals", "err", err)
			return
		}
		a.log.Info("swept after busy refusals")
	})
	go a.opts.Redeliver.Loop(ctx, a.clients, a.db, a.log, a.metrics.Redelivery)
	a.edge.github.AtStart(ctx)
	return webhook.NewServer(a.Handler(), a.opts.Seams.Server), webhook.LimitConns(ln, a.opts.MaxConns, a.edge.hooks)
}

// VerifyGitHub asks GitHub who the App is (GET /app with its JWT). On
// success /readyz may answer 200 and the App's slug is known; a wrong key
// or App ID wraps gh.ErrCredentials.
func (a *App) VerifyGitHub(ctx context.Context) (gh.AppInfo, error) { return a.edge.github.Verify(ctx) }
