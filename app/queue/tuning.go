package queue

import (
	"log/slog"
	"time"
)

// Tuning is the queue's part of the App's options (app.Options embeds it;
// serve's flags set it). Zero values take the defaults below.
type Tuning struct {
	// A failed job is retried after RetryBase, doubled per attempt up to
	// RetryMax (0: MaxRetryDelay).
	RetryBase, RetryMax time.Duration
	// ReconcileEvery is the sweep's period.
	ReconcileEvery time.Duration
	// JobTimeout bounds one job; RescueAfter is when a job left running by
	// a dead process is retried.
	JobTimeout, RescueAfter time.Duration
	// Workers is how many jobs run at once in this process; PollInterval
	// how often an idle queue looks for jobs.
	Workers      int
	PollInterval time.Duration
	// BusyRate, BusyJobRate: NewYield's (jobs give way to webhooks).
	BusyRate, BusyJobRate int
}

// The Tuning's defaults.
const (
	DefaultRetryBase      = 2 * time.Second
	MaxRetryDelay         = 10 * time.Minute
	DefaultReconcileEvery = time.Hour
	DefaultJobTimeout     = 2 * time.Minute
	DefaultRescueAfter    = 5 * time.Minute
	DefaultWorkers        = 8
	DefaultPollInterval   = 200 * time.Millisecond
)

// SetDefaults gives every zero value of t its default.
func (t *Tuning) SetDefaults() {
	defaults := map[*time.Duration]time.Duration{&t.RetryBase: DefaultRetryBase, &t.RetryMax: MaxRetryDelay,
		&t.ReconcileEvery: DefaultReconcileEvery, &t.JobTimeout: DefaultJobTimeout, &t.RescueAfter: DefaultRescueAfter,
		&t.PollInterval: DefaultPollInterval}
	for d, v := range defaults {
		if *d == 0 {
			*d = v
		}
	}
	if t.Workers <= 0 {
		t.Workers = DefaultWorkers
	}
}

// Config is the queue's Config for t (after SetDefaults), remembering
// webhook bodies for replayMemory (Config.ReplayMemory) and logging to log.
func (t Tuning) Config(replayMemory time.Duration, log *slog.Logger) Config {
	return Config{Workers: t.Workers, JobTimeout: t.JobTimeout, RescueAfter: t.RescueAfter,
		ReconcileEvery: t.ReconcileEvery, RetryBase: t.RetryBase, MaxRetryDelay: t.RetryMax, PollInterval: t.PollInterval,
		ReplayMemory: replayMemory, Yield: NewYield(t.BusyRate, t.BusyJobRate), Logger: log}
}
