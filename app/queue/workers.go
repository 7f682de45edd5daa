package queue

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/aepgate/aepgate/internal/gh"
)

// Runners do the work of each job kind; the queue calls them and
// retries what they return an error for. Kinds are the job kinds the
// features own, each with its worker.
type Runners struct {
	Delivery  func(ctx context.Context, d Delivery, attempt int) error
	Reconcile func(ctx context.Context) error
	Kinds     []Kind
	// Handles reports whether an event starts work; deliveries of other
	// events are recorded and not queued.
	Handles func(event string) bool
}

// Kind is a job kind a feature owns: Add adds its worker, and Queue names
// the River queue its jobs run on ("": the default queue, the deliveries').
type Kind struct {
	Queue string
	Add   func(w *river.Workers)
}

// retryPolicy retries after base·2^(attempt−1) with ±20 % jitter, capped at
// max. Rate limits do not come here: they snooze the job for exactly as
// long as GitHub asked.
type retryPolicy struct{ base, max time.Duration }

func (p *retryPolicy) NextRetry(job *rivertype.JobRow) time.Time {
	d := p.base << min(max(job.Attempt-1, 0), 20)
	if d <= 0 || d > p.max {
		d = p.max
	}
	d = time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
	return time.Now().Add(d)
}

// deliveryWorker runs delivery jobs.
type deliveryWorker struct {
	river.WorkerDefaults[Delivery]
	run func(ctx context.Context, d Delivery, attempt int) error
}

func (w *deliveryWorker) Work(ctx context.Context, job *river.Job[Delivery]) error {
	return w.run(ctx, job.Args, job.Attempt)
}

// reconcileWorker runs the periodic sweep, which visits every
// installation and so gets longer than one delivery's job.
type reconcileWorker struct {
	river.WorkerDefaults[Reconcile]
	run     func(ctx context.Context) error
	timeout time.Duration
}

// Timeout bounds one sweep.
func (w *reconcileWorker) Timeout(*river.Job[Reconcile]) time.Duration { return w.timeout }

func (w *reconcileWorker) Work(ctx context.Context, _ *river.Job[Reconcile]) error {
	err := w.run(ctx)
	if wait, ok := gh.RetryWait(err, time.Now()); ok {
		// GitHub limited the App itself: wait as long as it asked.
		return river.JobSnooze(max(wait, 0))
	}
	return err
}
