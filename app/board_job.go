package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/board"
)

// boardArgs is the job that updates one repository's board.
type boardArgs struct {
	Installation int64  `json:"installation"`
	Owner        string `json:"owner"`
	Repo         string `json:"repo"`
	// Slot numbers the BoardDelay-long window the job was asked for in:
	// one job per repository and window (boardUnique).
	Slot int64 `json:"slot"`
}

// Kind names the job kind in River's table.
func (boardArgs) Kind() string { return "aepgate_board" }

// boardSlot is the number of the BoardDelay-long window now falls in.
func boardSlot(now time.Time, delay time.Duration) int64 {
	return now.UnixNano() / int64(max(delay, time.Millisecond))
}

// slotEnd is when window slot ends.
func slotEnd(slot int64, delay time.Duration) time.Time {
	return time.Unix(0, (slot+1)*int64(max(delay, time.Millisecond)))
}

// boardQueue is the River queue of board jobs: apart from deliveries, so
// that board jobs waiting for their window's end never hold a delivery's
// worker.
const boardQueue = "aepgate_board"

// boardUnique makes a board job unique by its arguments (repository and
// window) while it waits or runs: the evaluations of one window ask for
// one update, which runs after the window ended (runBoard) and so sees
// them all.
var boardUnique = river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
	rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning, rivertype.JobStateScheduled, rivertype.JobStateRetryable}}

// scheduleBoard inserts the board job of args, unless one for the same
// window is already waiting or running.
func (q *riverQueue[TTx]) scheduleBoard(ctx context.Context, args boardArgs) error {
	if _, err := q.client.Insert(ctx, args, &river.InsertOpts{Queue: boardQueue, UniqueOpts: boardUnique}); err != nil {
		return fmt.Errorf("schedule the board of %s/%s: %w", args.Owner, args.Repo, err)
	}
	return nil
}

// boardWorker runs board jobs, each of which waits up to delay for its
// window's end before its update, which gets the timeout of a delivery.
type boardWorker struct {
	river.WorkerDefaults[boardArgs]
	run            jobRunner
	delay, timeout time.Duration
}

// Timeout bounds one board job: its wait and its update.
func (w *boardWorker) Timeout(*river.Job[boardArgs]) time.Duration { return w.delay + w.timeout }

func (w *boardWorker) Work(ctx context.Context, job *river.Job[boardArgs]) error {
	return w.run.runBoard(ctx, job.Args)
}

// boardJobs is the evaluator's boardKeeper: facts in the App's database,
// updates on the queue after Options.BoardDelay.
type boardJobs struct {
	a            *App
	installation int64
}

func (b boardJobs) saveFact(ctx context.Context, repo string, f board.Fact) (bool, error) {
	raw, err := json.Marshal(f)
	if err != nil {
		return false, fmt.Errorf("board fact: %w", err)
	}
	return b.a.db.SaveBoardFact(ctx, repo, f.PR, raw, time.Now())
}

func (b boardJobs) schedule(ctx context.Context, owner, repo string) error {
	return b.a.queue.scheduleBoard(ctx, boardArgs{Installation: b.installation, Owner: owner, Repo: repo, Slot: boardSlot(time.Now(), b.a.opts.BoardDelay)})
}

// runBoard waits for the end of the window it was asked in, so that the
// evaluations of one burst are shown by one update, then updates the board
// (updateBoard). A rate limit snoozes the job as long as GitHub asked.
func (a *App) runBoard(ctx context.Context, args boardArgs) error {
	start := time.Now()
	log := a.log.With("installation", args.Installation, "repo", args.Owner+"/"+args.Repo, "job", "board")
	err := sleepCtx(ctx, a.stopping, time.Until(slotEnd(args.Slot, a.opts.BoardDelay)))
	if err == nil {
		err = a.updateBoard(ctx, args, log)
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
	a.metrics.job(boardArgs{}.Kind(), result, time.Since(start))
	return err
}

// errStopping ends a board job's wait when the App shuts down.
var errStopping = errors.New("the App is shutting down")

// sleepCtx waits d, or until ctx ends or stopping is closed.
func sleepCtx(ctx context.Context, stopping <-chan struct{}, d time.Duration) error {
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
