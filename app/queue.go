package app

import (
	"github.com/aepgate/aepgate/app/board"
	"github.com/aepgate/aepgate/app/queue"
)

// queueConfig is the queue's part of the Options.
func (o *Options) queueConfig() queue.Config {
	return queue.Config{Workers: o.Workers, JobTimeout: o.JobTimeout, RescueAfter: o.RescueAfter,
		ReconcileEvery: o.ReconcileEvery, RetryBase: o.RetryBase, MaxRetryDelay: o.RetryMax, PollInterval: o.PollInterval,
		ReplayMemory: o.replayMemory(), Yield: queue.NewYield(o.BusyRate, o.BusyJobRate), Logger: o.Logger}
}

// runners are the App's work for each of the queue's jobs.
func (a *App) runners() queue.Runners {
	return queue.Runners{Delivery: a.runDelivery, Reconcile: a.runReconcile, Fanout: a.runFanout,
		Rejudge: a.runRejudge, Handles: a.families.Handles, Kinds: []queue.Kind{board.Job(a.runBoard, a.opts.BoardDelay, a.opts.JobTimeout)}}
}
