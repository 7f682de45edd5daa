package board

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/internal/gh"
)

// Args is the job that updates one repository's board.
type Args struct {
	Installation int64  `json:"installation"`
	Owner        string `json:"owner"`
	Repo         string `json:"repo"`
	// Slot numbers the Delay-long window the job was asked for in: one
	// job per repository and window (Unique).
	Slot int64 `json:"slot"`
}

// Kind names the job kind in River's table.
func (Args) Kind() string { return "aepgate_board" }

// Slot is the number of the delay-long window now falls in.
func Slot(now time.Time, delay time.Duration) int64 {
	return now.UnixNano() / int64(max(delay, time.Millisecond))
}

// SlotEnd is when window slot ends.
func SlotEnd(slot int64, delay time.Duration) time.Time {
	return time.Unix(0, (slot+1)*int64(max(delay, time.Millisecond)))
}

// Queue is the River queue of board jobs: apart from deliveries, so that
// board jobs waiting for their window's end never hold a delivery's
// worker.
const Queue = "aepgate_board"

// Inserter inserts a job (river.Client).
type Inserter interface {
	Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

// Insert inserts the board job of args on q, unless one for the same
// window is already waiting or running (queue.Unique, by repository and
// window): the evaluations of one window ask for one update, which runs
// after the window ended (Run) and so sees them all.
func Insert(ctx context.Context, q Inserter, args Args) error {
	if _, err := q.Insert(ctx, args, &river.InsertOpts{Queue: Queue, UniqueOpts: queue.Unique}); err != nil {
		return fmt.Errorf("schedule the board of %s/%s: %w", args.Owner, args.Repo, err)
	}
	return nil
}

// Worker runs board jobs, each of which waits up to Delay for its
// window's end before its update, which gets JobTimeout, a delivery's.
type Worker struct {
	river.WorkerDefaults[Args]
	// Run does one job (Boards.Run).
	Run               func(ctx context.Context, args Args) error
	Delay, JobTimeout time.Duration
}

// Job is the board job kind, which the queue runs on its own River queue
// (Queue): Worker's, with run, delay and jobTimeout.
func Job(run func(ctx context.Context, args Args) error, delay, jobTimeout time.Duration) queue.Kind {
	return queue.Kind{Queue: Queue, Add: func(w *river.Workers) {
		river.AddWorker(w, &Worker{Run: run, Delay: delay, JobTimeout: jobTimeout})
	}}
}

// Timeout bounds one board job: its wait and its update.
func (w *Worker) Timeout(*river.Job[Args]) time.Duration { return w.Delay + w.JobTimeout }

// Work runs job.
func (w *Worker) Work(ctx context.Context, job *river.Job[Args]) error {
	return w.Run(ctx, job.Args)
}

// Run waits for the end of the window it was asked in, so that the
// evaluations of one burst are shown by one update, then updates the board
// (Update). A rate limit snoozes the job as long as GitHub asked.
func (b *Boards) Run(ctx context.Context, args Args) error {
	start := time.Now()
	log := b.Log.With("installation", args.Installation, "repo", args.Owner+"/"+args.Repo, "job", "board")
	err := sleep(ctx, b.Stopping, time.Until(SlotEnd(args.Slot, b.Delay)))
	if err == nil {
		err = b.Update(ctx, args, log)
	}
	result := "ok"
	if errors.Is(err, errStopping) {
		// Shutdown: hand the job back untouched for the next process.
		result, err = "returned", river.JobSnooze(0)
	} else if wait, ok := gh.RetryWait(err, time.Now()); ok {
		result, err = "snoozed", river.JobSnooze(max(wait, 0))
	} else if err != nil {
		result = "retry"
		log.Warn("board update failed; will retry", "err", err)
	}
	b.Job(Args{}.Kind(), result, time.Since(start))
	return err
}

// errStopping ends a board job's wait when the App shuts down.
var errStopping = errors.New("the App is shutting down")

// sleep waits d, or until ctx ends or stopping is closed.
func sleep(ctx context.Context, stopping <-chan struct{}, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-stopping:
		return errStopping
	case <-t.C:
		return nil
	}
}
