package app

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"github.com/aepgate/aepgate/app/board"
	"github.com/aepgate/aepgate/internal/gh"
)

// fanoutArgs is the job that judges every open pull request of one
// repository once after a decision on its control issue changed (a
// project HOLD, resume or gate, or tampering with one): the changes of one
// window are coalesced into one pass, which runs at the window's end and so
// sees them all. A control-issue comment that changes nothing (a stranger's,
// or one without an accepted request) asks for none.
type fanoutArgs struct {
	Installation int64  `json:"installation"`
	Owner        string `json:"owner"`
	Repo         string `json:"repo"`
	// Slot numbers the FanoutWindow-long window the job was asked in.
	Slot int64 `json:"slot"`
}

// Kind names the job kind in River's table.
func (fanoutArgs) Kind() string { return "aepgate_fanout" }

// scheduleFanout inserts args' job to run at its window's end, unless one
// for the same repository and window is already waiting or running.
func (q *riverQueue[TTx]) scheduleFanout(ctx context.Context, args fanoutArgs, window time.Duration) error {
	opts := &river.InsertOpts{UniqueOpts: board.Unique, ScheduledAt: board.SlotEnd(args.Slot, window)}
	if _, err := q.client.Insert(ctx, args, opts); err != nil {
		return fmt.Errorf("schedule the open pull requests of %s/%s: %w", args.Owner, args.Repo, err)
	}
	return nil
}

// fanoutWorker runs fanout jobs.
type fanoutWorker struct {
	river.WorkerDefaults[fanoutArgs]
	run jobRunner
}

func (w *fanoutWorker) Work(ctx context.Context, job *river.Job[fanoutArgs]) error {
	return w.run.runFanout(ctx, job.Args)
}

// fanout asks for the open pull requests of in's repository to be judged
// once, at the end of the current window.
func (e *evaluator) fanout(ctx context.Context, in evalInput) error {
	if e.fanouts == nil {
		return nil
	}
	return e.fanouts(ctx, in.owner, in.repo)
}

// runFanout judges the open pull requests of one repository (a fanout
// job). A rate limit snoozes the job for as long as GitHub asked.
func (a *App) runFanout(ctx context.Context, args fanoutArgs) error {
	start := time.Now()
	log := a.log.With("installation", args.Installation, "repo", args.Owner+"/"+args.Repo, "job", "fanout")
	ev, err := a.evaluator(args.Installation, log)
	if err == nil {
		w := where{installation: args.Installation, owner: args.Owner, repo: args.Repo, event: fanoutEvent}
		err = judgeOpen{}.run(ctx, a, ev, w)
	}
	result := "ok"
	if wait, ok := gh.RetryWait(err, time.Now()); ok {
		result, err = "snoozed", river.JobSnooze(max(wait, 0))
	} else if err != nil {
		result = "retry"
		log.Warn("judging the open pull requests failed; will retry", "err", err)
	}
	a.metrics.job(fanoutArgs{}.Kind(), result, time.Since(start))
	return err
}

// fanoutEvent is the event name of a fanout job's evaluations.
const fanoutEvent = "control_issue"

// fanouts is the evaluator's way to ask for a fanout of one installation's
// repository.
func (a *App) fanouts(installation int64) func(ctx context.Context, owner, repo string) error {
	return func(ctx context.Context, owner, repo string) error {
		slot := board.Slot(time.Now(), a.opts.FanoutWindow)
		return a.queue.scheduleFanout(ctx, fanoutArgs{Installation: installation, Owner: owner, Repo: repo, Slot: slot}, a.opts.FanoutWindow)
	}
}
