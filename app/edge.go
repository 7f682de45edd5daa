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

// edge is the App's HTTP edge (webhook.Edge) and whether GitHub accepted
// the App's credentials (/readyz).
type edge struct {
	*webhook.Edge
	github *ready.GitHub
}

// newEdge builds the App's edge on the queue, with the App's secrets,
// metrics and log, the events it handles and what their jobs read of a
// body (their payload views, which the edge keeps of it).
func (a *App) newEdge(yield *queue.Yield) (err error) {
	o := a.opts
	a.edge.github = &ready.GitHub{Identity: a.clients.Identity, Log: a.log, Recheck: o.AuthRecheck}
	a.edge.Edge, err = webhook.NewEdge(webhook.Parts{To: a.queue, HookRanges: a.clients.HookRanges, Configured: o.GitHubHookAddresses,
		Batch:     webhook.BatchConfig{Size: o.BatchSize, Wait: o.BatchWait, Observe: yield.Observe(a.metrics.Batch), Options: o.Seams.Batch},
		BusySweep: o.BusySweep, Sweep: a.runReconcile, NoBusySweep: o.Seams.NoBusySweep,
		Config: webhook.Config{Secrets: o.WebhookSecrets, Handled: a.features.families.Handles, Views: a.features.families.Views,
			Metrics: webhook.Metrics{Delivery: a.metrics.Delivery, Unverified: a.metrics.Unverified},
			Log:     a.log, TrustedProxies: o.TrustedProxies, Options: o.Seams.Edge}})
	return err
}

// serveEdge serves the edge (webhook.Edge.Serve), has GitHub redeliver
// what it could not deliver (app/redeliver) and checks the App's
// credentials until ctx ends; it returns the server for ln.
func (a *App) serveEdge(ctx context.Context, ln net.Listener) (*http.Server, net.Listener) {
	srv, ln := a.edge.Serve(ctx, ln, a.Handler(), a.opts.Seams.Server, a.opts.MaxConns, func(err error) {
		if err != nil {
			a.log.Warn("sweep after busy refusals", "err", err)
			return
		}
		a.log.Info("swept after busy refusals")
	})
	go a.opts.Redeliver.Loop(ctx, a.clients, a.db, a.log, a.metrics.Redelivery)
	a.edge.github.AtStart(ctx)
	return srv, ln
}

// VerifyGitHub asks GitHub who the App is (GET /app with its JWT). On
// success /readyz may answer 200 and the App's slug is known; a wrong key
// or App ID wraps gh.ErrCredentials.
func (a *App) VerifyGitHub(ctx context.Context) (gh.AppInfo, error) { return a.edge.github.Verify(ctx) }
