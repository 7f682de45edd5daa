package app

import (
	"github.com/aepgate/aepgate/app/metrics"
	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/app/ready"
	"github.com/aepgate/aepgate/app/webhook"
)

// The App's parts the package's external tests inspect (only in this
// package's test binary: no feature package needs them).

func (a *App) Batcher() *webhook.Batcher  { return a.edge.Batcher }
func (a *App) Hooks() *webhook.HookCache  { return a.edge.Hooks }
func (a *App) Metrics() *metrics.Set      { return a.metrics }
func (a *App) Queue() *queue.Queue        { return a.queue }
func (a *App) Credentials() *ready.GitHub { return a.edge.github }
