package app

import (
	"log/slog"
	"net/http"

	"github.com/aepgate/aepgate/app/webhook"
)

// newEdge builds the webhook edge (package app/webhook) on q with the
// App's secrets, metrics and log, the events it handles, what their jobs
// read of a body (their payload views, which the edge keeps of it) and its
// fair-budget parts (fair.go).
func newEdge(o *Options, fs families, q webhook.Enqueuer, m *metrics, log *slog.Logger, f fairness) (http.Handler, error) {
	return webhook.New(webhook.Config{
		Secrets:        o.WebhookSecrets,
		Queue:          q,
		Handled:        fs.handles,
		Views:          fs.views,
		Metrics:        webhook.Metrics{Delivery: m.delivery, Unverified: m.unverified},
		Log:            log,
		TrustedProxies: o.TrustedProxies,
		Hooks:          f.hooks,
		OnBusy:         f.onBusy,
		Options:        o.edge,
	})
}
