package queue

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivertype"

	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/store"
)

// Config tunes the queue (the App's Options of the same names).
type Config struct {
	// Workers is how many jobs of each queue run at once.
	Workers int
	// JobTimeout bounds one job; RescueAfter is when a running job is
	// taken for dead and started again.
	JobTimeout, RescueAfter time.Duration
	// ReconcileEvery is the sweep's period.
	ReconcileEvery time.Duration
	// RetryBase is the first retry's delay, doubled each attempt up to
	// MaxRetryDelay.
	RetryBase, MaxRetryDelay time.Duration
	// PollInterval is how often an idle worker looks for jobs.
	PollInterval time.Duration
	// ReplayMemory is how long a webhook body's SHA-256 is remembered, so
	// that the same body under a new delivery ID is not queued again
	// (webhook.ReplayMemory; 0: not at all, a negative control).
	ReplayMemory time.Duration
	// Yield paces job starts while the webhook edge is busy (nil: never).
	Yield *Yield
	// Logger gets River's warnings and errors (riverLogger).
	Logger *slog.Logger
}

// Queue is the durable job queue on the App's database.
type Queue struct {
	db *store.DB
	e  engine
	// handles reports whether an event starts work (Runners.Handles).
	handles func(event string) bool
	// replayMemory is Config.ReplayMemory.
	replayMemory time.Duration
}

// engine is River on one database engine (River[TTx]).
type engine interface {
	insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
	insertTx(ctx context.Context, tx store.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
	insertManyTx(ctx context.Context, tx store.Tx, jobs []river.InsertManyParams) error
	start(ctx context.Context) error
	stop(ctx context.Context) error
	stopAndCancel(ctx context.Context) error
}

// riverEngine is River's client on one engine; TTx is the engine's transaction.
type riverEngine[TTx any] struct{ client *river.Client[TTx] }

func (r riverEngine[TTx]) insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	return r.client.Insert(ctx, args, opts)
}

func (r riverEngine[TTx]) insertTx(ctx context.Context, tx store.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	return r.client.InsertTx(ctx, tx.Raw().(TTx), args, opts)
}

// insertManyTx inserts jobs with River's fast path, which returns no rows:
// on SQLite, InsertManyTx's RETURNING * (every job's args and metadata
// read back as JSON text, and a nonce written into each job's metadata) cost
// about as much as the insert itself, and a delivery job has no uniqueness
// for it to report.
func (r riverEngine[TTx]) insertManyTx(ctx context.Context, tx store.Tx, jobs []river.InsertManyParams) error {
	_, err := r.client.InsertManyFastTx(ctx, tx.Raw().(TTx), jobs)
	return err
}

func (r riverEngine[TTx]) start(ctx context.Context) error { return r.client.Start(ctx) }
func (r riverEngine[TTx]) stop(ctx context.Context) error  { return r.client.Stop(ctx) }
func (r riverEngine[TTx]) stopAndCancel(ctx context.Context) error {
	return r.client.StopAndCancel(ctx)
}

// New migrates River's tables on db and builds its client, running
// jobs through run.
func New(ctx context.Context, db *store.DB, c Config, run Runners) (*Queue, error) {
	var e engine
	var err error
	if db.Dialect == store.Postgres {
		e, err = build(ctx, db, riverpgxv5.New(db.Pool), c, run)
	} else {
		e, err = build[*sql.Tx](ctx, db, riversqlite.New(db.SQL), c, run)
	}
	if err != nil {
		return nil, err
	}
	return &Queue{db: db, e: e, handles: run.Handles, replayMemory: c.ReplayMemory}, nil
}

func build[TTx any](ctx context.Context, db *store.DB, driver riverdriver.Driver[TTx], c Config, run Runners) (engine, error) {
	if err := migrate(ctx, db, driver, c.Logger); err != nil {
		return nil, err
	}
	workers := river.NewWorkers()
	river.AddWorker(workers, &deliveryWorker{run: run.Delivery})
	// A sweep may outlast a delivery's JobTimeout, but not RescueAfter: a
	// job running longer is taken for dead and started a second time.
	river.AddWorker(workers, &reconcileWorker{run: run.Reconcile, timeout: max(c.JobTimeout, min(c.ReconcileEvery, c.RescueAfter))})
	queues := map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: c.Workers}}
	for _, k := range run.Kinds {
		k.Add(workers)
		if k.Queue != "" {
			queues[k.Queue] = river.QueueConfig{MaxWorkers: c.Workers}
		}
	}
	periodic := river.NewPeriodicJob(river.PeriodicInterval(c.ReconcileEvery),
		func() (river.JobArgs, *river.InsertOpts) {
			return Reconcile{}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: c.ReconcileEvery}}
		}, nil)
	client, err := river.NewClient(driver, &river.Config{
		Queues:                      queues,
		Workers:                     workers,
		PeriodicJobs:                []*river.PeriodicJob{periodic},
		RetryPolicy:                 &retryPolicy{base: c.RetryBase, max: c.MaxRetryDelay},
		JobTimeout:                  c.JobTimeout,
		RescueStuckJobsAfter:        c.RescueAfter,
		FetchPollInterval:           c.PollInterval,
		FetchCooldown:               min(c.PollInterval, 100*time.Millisecond),
		CompletedJobRetentionPeriod: completedRetention(c),
		Logger:                      riverLogger(c.Logger),
		Middleware:                  []rivertype.Middleware{&yieldMiddleware{y: c.Yield}},
	})
	if err != nil {
		return nil, fmt.Errorf("queue: %w", err)
	}
	return riverEngine[TTx]{client: client}, nil
}

// completedRetention is how long River keeps a completed job, and with it
// the payload its delivery stored: an hour, or one reconcile period when
// that is longer, so the sweep's once-per-period uniqueness still sees the
// last sweep. Delivery IDs are remembered apart from jobs (the store's
// delivery record).
func completedRetention(c Config) time.Duration { return max(time.Hour, c.ReconcileEvery) }

// Start starts the workers.
func (q *Queue) Start(ctx context.Context) error { return q.e.start(ctx) }

// Stop lets running jobs finish within ctx, then cancels the rest, which
// River returns to the queue.
func (q *Queue) Stop(ctx context.Context) error {
	if err := q.e.stop(ctx); err == nil {
		return nil
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	return q.e.stopAndCancel(cctx)
}

// Insert inserts a job of a kind a feature registered (Kind).
func (q *Queue) Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	return q.e.insert(ctx, args, opts)
}

// Unique makes a job unique by its arguments while it waits or runs.
var Unique = river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
	rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning, rivertype.JobStateScheduled, rivertype.JobStateRetryable}}

// ScheduleFanout inserts args' job to run at end, its window's, unless one
// for the same repository and window is already waiting or running.
func (q *Queue) ScheduleFanout(ctx context.Context, args Fanout, end time.Time) error {
	opts := &river.InsertOpts{UniqueOpts: Unique, ScheduledAt: end}
	if _, err := q.e.insert(ctx, args, opts); err != nil {
		return fmt.Errorf("schedule the open pull requests of %s/%s: %w", args.Owner, args.Repo, err)
	}
	return nil
}

// Ping reports whether the queue's database answers.
func (q *Queue) Ping(ctx context.Context) error { return q.db.Ping(ctx) }

var (
	_ webhook.Enqueuer       = (*Queue)(nil)
	_ webhook.BatchEnqueuer  = (*Queue)(nil)
	_ webhook.NoSyncEnqueuer = (*Queue)(nil)
)
