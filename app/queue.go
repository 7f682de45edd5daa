package app

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"

	"github.com/aepgate/aepgate/app/board"
	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
)

// deliveryArgs is the durable job of one verified webhook delivery.
type deliveryArgs struct {
	DeliveryID string `json:"delivery_id"`
	Event      string `json:"event"`
	// Payload is what the job keeps of the body: the fields its handlers
	// read (what their payload views read, kept by the edge), not the
	// whole body.
	Payload json.RawMessage `json:"payload"`
}

// Kind names the job kind in River's table.
func (deliveryArgs) Kind() string { return "aepgate_delivery" }

// reconcileArgs is the periodic sweep's job.
type reconcileArgs struct{}

// Kind names the job kind in River's table.
func (reconcileArgs) Kind() string { return "aepgate_reconcile" }

// queue is the durable job queue on the App's database.
type queue interface {
	webhook.Enqueuer
	webhook.BatchEnqueuer
	start(ctx context.Context) error
	// stop lets running jobs finish within ctx, then cancels the rest,
	// which River returns to the queue.
	stop(ctx context.Context) error
	ping(ctx context.Context) error
	// scheduleBoard asks for a board update (boards.go).
	scheduleBoard(ctx context.Context, args board.Args) error
	// scheduleFanout asks for a repository's open pull requests to be
	// judged once at the end of the window (fanout.go).
	scheduleFanout(ctx context.Context, args fanoutArgs, window time.Duration) error
	// scheduleRejudge asks for a pull request to be judged again after
	// delay, coalesced with the requests already waiting (coalesce.go).
	scheduleRejudge(ctx context.Context, args rejudgeArgs, delay time.Duration) (inserted, error)
}

// riverQueue is River on either engine; TTx is the engine's transaction.
type riverQueue[TTx any] struct {
	db     *store.DB
	client *river.Client[TTx]
	// handles reports whether an event starts work; others are recorded
	// and not queued.
	handles func(event string) bool
	// replayMemory is how long a body's SHA-256 is remembered
	// (webhook.ReplayMemory; 0: not at all, the negative control).
	replayMemory time.Duration
}

// jobRunner does the work of each job kind.
type jobRunner interface {
	runDelivery(ctx context.Context, d deliveryArgs, attempt int) error
	runReconcile(ctx context.Context) error
	runBoard(ctx context.Context, args board.Args) error
	runFanout(ctx context.Context, args fanoutArgs) error
	runRejudge(ctx context.Context, args rejudgeArgs) error
	// handles reports whether an event starts work (the family table).
	handles(event string) bool
}

// newQueue migrates River's tables and builds its client for db.
func newQueue(ctx context.Context, db *store.DB, o *Options, run jobRunner) (queue, error) {
	if db.Dialect == store.Postgres {
		return buildQueue(ctx, db, riverpgxv5.New(db.Pool), o, run)
	}
	return buildQueue[*sql.Tx](ctx, db, riversqlite.New(db.SQL), o, run)
}

func buildQueue[TTx any](ctx context.Context, db *store.DB, driver riverdriver.Driver[TTx], o *Options, run jobRunner) (queue, error) {
	if err := migrateRiver(ctx, db, driver); err != nil {
		return nil, err
	}
	workers := river.NewWorkers()
	river.AddWorker(workers, &deliveryWorker{run: run})
	river.AddWorker(workers, &board.Worker{Run: run.runBoard, Delay: o.BoardDelay, JobTimeout: o.JobTimeout})
	river.AddWorker(workers, &fanoutWorker{run: run})
	river.AddWorker(workers, &rejudgeWorker{run: run})
	// A sweep may outlast a delivery's JobTimeout, but not RescueAfter: a
	// job running longer is taken for dead and started a second time.
	river.AddWorker(workers, &reconcileWorker{run: run, timeout: max(o.JobTimeout, min(o.ReconcileEvery, o.RescueAfter))})
	periodic := river.NewPeriodicJob(river.PeriodicInterval(o.ReconcileEvery),
		func() (river.JobArgs, *river.InsertOpts) {
			return reconcileArgs{}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: o.ReconcileEvery}}
		}, nil)
	client, err := river.NewClient(driver, &river.Config{
		Queues:                      map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: o.Workers}, board.Queue: {MaxWorkers: o.Workers}},
		Workers:                     workers,
		PeriodicJobs:                []*river.PeriodicJob{periodic},
		RetryPolicy:                 &retryPolicy{base: o.RetryBase},
		JobTimeout:                  o.JobTimeout,
		RescueStuckJobsAfter:        o.RescueAfter,
		FetchPollInterval:           o.PollInterval,
		FetchCooldown:               min(o.PollInterval, 100*time.Millisecond),
		CompletedJobRetentionPeriod: completedRetention(o),
		Logger:                      riverLogger(o.Logger),
	})
	if err != nil {
		return nil, fmt.Errorf("queue: %w", err)
	}
	return &riverQueue[TTx]{db: db, client: client, handles: run.handles, replayMemory: o.replayMemory()}, nil
}

// completedRetention is how long River keeps a completed job, and with it
// the payload its delivery stored: an hour, or one reconcile period when
// that is longer, so the sweep's once-per-period uniqueness still sees the
// last sweep. Delivery IDs are remembered apart from jobs (deliveryMemory).
func completedRetention(o *Options) time.Duration { return max(time.Hour, o.ReconcileEvery) }

// riverLogger passes River's warnings and errors through; its routine
// chatter stays out of the App's log.
func riverLogger(l *slog.Logger) *slog.Logger {
	return slog.New(levelFilter{l.Handler(), slog.LevelWarn}).With("component", "river")
}

type levelFilter struct {
	slog.Handler
	min slog.Level
}

func (f levelFilter) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= f.min && f.Handler.Enabled(ctx, l)
}

func (f levelFilter) WithAttrs(as []slog.Attr) slog.Handler {
	return levelFilter{f.Handler.WithAttrs(as), f.min}
}

func (f levelFilter) WithGroup(name string) slog.Handler {
	return levelFilter{f.Handler.WithGroup(name), f.min}
}

// migrateRiver applies River's own migrations; on PostgreSQL an advisory
// lock keeps replicas from migrating at once.
func migrateRiver[TTx any](ctx context.Context, db *store.DB, driver riverdriver.Driver[TTx]) error {
	if db.Dialect == store.Postgres {
		conn, err := db.Pool.Acquire(ctx)
		if err != nil {
			return fmt.Errorf("queue migrate: %w", err)
		}
		defer conn.Release()
		const key = 0x7269766572 // "river"
		if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, int64(key)); err != nil {
			return fmt.Errorf("queue migrate: lock: %w", err)
		}
		defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, int64(key))
	}
	m, err := rivermigrate.New(driver, nil)
	if err != nil {
		return fmt.Errorf("queue migrate: %w", err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("queue migrate: %w", err)
	}
	return nil
}

// Enqueue records a verified delivery's ID and body sum and, when it is
// new and its event starts work, inserts its job, in one transaction (a
// batch of one, EnqueueBatch).
func (q *riverQueue[TTx]) Enqueue(ctx context.Context, v webhook.Delivery) (webhook.Outcome, error) {
	out, err := q.EnqueueBatch(ctx, []webhook.Delivery{v})
	if err != nil {
		return webhook.Outcome{}, err
	}
	return out[0], nil
}

func (q *riverQueue[TTx]) start(ctx context.Context) error { return q.client.Start(ctx) }

func (q *riverQueue[TTx]) stop(ctx context.Context) error {
	if err := q.client.Stop(ctx); err == nil {
		return nil
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	return q.client.StopAndCancel(cctx)
}

func (q *riverQueue[TTx]) ping(ctx context.Context) error { return q.db.Ping(ctx) }

// retryPolicy retries after base·2^(attempt−1) with ±20 % jitter, capped at
// MaxRetryDelay. Rate limits do not come here: they snooze the job for
// exactly as long as GitHub asked.
type retryPolicy struct{ base time.Duration }

func (p *retryPolicy) NextRetry(job *rivertype.JobRow) time.Time {
	d := p.base << min(max(job.Attempt-1, 0), 20)
	if d <= 0 || d > MaxRetryDelay {
		d = MaxRetryDelay
	}
	d = time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
	return time.Now().Add(d)
}

// deliveryWorker runs delivery jobs.
type deliveryWorker struct {
	river.WorkerDefaults[deliveryArgs]
	run jobRunner
}

func (w *deliveryWorker) Work(ctx context.Context, job *river.Job[deliveryArgs]) error {
	return w.run.runDelivery(ctx, job.Args, job.Attempt)
}

// reconcileWorker runs the periodic sweep, which visits every
// installation and so gets longer than one delivery's job.
type reconcileWorker struct {
	river.WorkerDefaults[reconcileArgs]
	run     jobRunner
	timeout time.Duration
}

// Timeout bounds one sweep.
func (w *reconcileWorker) Timeout(*river.Job[reconcileArgs]) time.Duration { return w.timeout }

func (w *reconcileWorker) Work(ctx context.Context, _ *river.Job[reconcileArgs]) error {
	err := w.run.runReconcile(ctx)
	if wait, ok := gh.RetryWait(err, time.Now()); ok {
		// GitHub limited the App itself: wait as long as it asked.
		return river.JobSnooze(max(wait, 0))
	}
	return err
}
