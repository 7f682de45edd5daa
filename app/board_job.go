package app

import (
	"context"
	"encoding/json"
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
}

// Kind names the job kind in River's table.
func (boardArgs) Kind() string { return "aepgate_board" }

// boardUnique makes a board job unique by repository while it waits or
// runs: the evaluations of one burst schedule one update. A fact saved
// while it runs makes it run once more (runBoard).
var boardUnique = river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
	rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning, rivertype.JobStateScheduled, rivertype.JobStateRetryable}}

// scheduleBoard inserts the board job of args to run at at, unless one is
// already waiting or running.
func (q *riverQueue[TTx]) scheduleBoard(ctx context.Context, args boardArgs, at time.Time) error {
	if _, err := q.client.Insert(ctx, args, &river.InsertOpts{ScheduledAt: at, UniqueOpts: boardUnique}); err != nil {
		return fmt.Errorf("schedule the board of %s/%s: %w", args.Owner, args.Repo, err)
	}
	return nil
}

// boardWorker runs board jobs.
type boardWorker struct {
	river.WorkerDefaults[boardArgs]
	run jobRunner
}

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
	return b.a.queue.scheduleBoard(ctx, boardArgs{Installation: b.installation, Owner: owner, Repo: repo}, time.Now().Add(b.a.opts.BoardDelay))
}

// runBoard updates one repository's board (updateBoard). A rate limit
// snoozes the job as long as GitHub asked; facts saved while it ran make
// it run once more after BoardDelay.
func (a *App) runBoard(ctx context.Context, args boardArgs) error {
	start := time.Now()
	log := a.log.With("installation", args.Installation, "repo", args.Owner+"/"+args.Repo, "job", "board")
	err := a.updateBoard(ctx, args, log)
	result := "ok"
	if wait, ok := gh.RetryWait(err, time.Now()); ok {
		result, err = "snoozed", river.JobSnooze(max(wait, 0))
	} else if err != nil {
		result = "retry"
		log.Warn("board update failed; will retry", "err", err)
	} else if again, cerr := a.db.BoardFactsChangedSince(ctx, args.Owner+"/"+args.Repo, start); cerr == nil && again {
		result, err = "again", river.JobSnooze(a.opts.BoardDelay)
	}
	a.metrics.job(boardArgs{}.Kind(), result, time.Since(start))
	return err
}
