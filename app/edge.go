package app

import (
	"context"
	"net"
	"net/http"

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

// newEdge builds the App's edge: GitHub's hook ranges, the sweep
// after busy refusals, the credentials check of /readyz and the webhook
// edge (package app/webhook) on the batcher, with the App's secrets,
// metrics and log, the events it handles and what their jobs read of a
// body (their payload views, which the edge keeps of it).
func (a *App) newEdge() error {
	a.hooks = &webhook.HookCache{Read: a.clients.HookRanges, Log: a.log, Configured: a.opts.GitHubHookAddresses}
	a.sweeper = webhook.NewBusySweep(a.opts.BusySweep, a.runReconcile)
	a.github = &ready.GitHub{Identity: a.clients.Identity, Log: a.log, Recheck: a.opts.AuthRecheck}
	onBusy := a.sweeper.Busy
	if a.opts.Seams.NoBusySweep {
		onBusy = nil
	}
	var err error
	a.webhook, err = webhook.New(webhook.Config{
		Secrets: a.opts.WebhookSecrets, Queue: a.batcher, Handled: a.families.Handles, Views: a.families.Views,
		Metrics: webhook.Metrics{Delivery: a.metrics.Delivery, Unverified: a.metrics.Unverified},
		Log:     a.log, TrustedProxies: a.opts.TrustedProxies, Hooks: a.hooks, OnBusy: onBusy, Options: a.opts.Seams.Edge,
	})
	return err
}

// serveEdge reads GitHub's hook ranges once (bounded, so a GitHub that does not answer delays
// start-up by webhook.HookFirstRead at most), then keeps them fresh, sweeps after busy refusals,
// has GitHub redeliver what it could not deliver (app/redeliver) and checks the App's credentials
// until ctx ends; it returns the server for ln, which holds at most Options.MaxConns connections.
func (a *App) serveEdge(ctx context.Context, ln net.Listener) (*http.Server, net.Listener) {
	ok := a.hooks.Refresh(ctx, webhook.HookFirstRead)
	go a.hooks.Watch(ctx, ok)
	go a.sweeper.Run(ctx, func(err error) {
		if err != nil {
			a.log.Warn("sweep after busy refusals", "err", err)
			return
		}
		a.log.Info("swept after busy refusals")
	})
	go a.opts.Redeliver.Loop(ctx, a.clients, a.db, a.log, a.metrics.Redelivery)
	a.github.AtStart(ctx)
	return webhook.NewServer(a.Handler(), a.opts.Seams.Server), webhook.LimitConns(ln, a.opts.MaxConns, a.hooks)
}

// VerifyGitHub asks GitHub who the App is (GET /app with its JWT). On
// success /readyz may answer 200 and the App's slug is known; a wrong key
// or App ID wraps gh.ErrCredentials.
func (a *App) VerifyGitHub(ctx context.Context) (gh.AppInfo, error) { return a.github.Verify(ctx) }
