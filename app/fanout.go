package app

import (
	"context"
	"time"

	"github.com/riverqueue/river"

	"github.com/aepgate/aepgate/app/board"
	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/internal/gh"
)

// runFanout judges the open pull requests of one repository (a fanout
// job). A rate limit snoozes the job for as long as GitHub asked.
func (a *App) runFanout(ctx context.Context, args queue.Fanout) error {
	start := time.Now()
	log := a.log.With("installation", args.Installation, "repo", args.Owner+"/"+args.Repo, "job", "fanout")
	j, err := a.judges(args.Installation, log)
	if err == nil {
		w := route.Where{Installation: args.Installation, Owner: args.Owner, Repo: args.Repo, Event: fanoutEvent}
		err = a.handlers(j).Run(ctx, w, []route.Work{pull.JudgeOpen{}})
	}
	result := "ok"
	if wait, ok := gh.RetryWait(err, time.Now()); ok {
		result, err = "snoozed", river.JobSnooze(max(wait, 0))
	} else if err != nil {
		result = "retry"
		log.Warn("judging the open pull requests failed; will retry", "err", err)
	}
	a.metrics.Job(queue.Fanout{}.Kind(), result, time.Since(start))
	return err
}

// fanoutEvent is the event name of a fanout job's evaluations.
const fanoutEvent = "control_issue"

// fanouts is the gates' way to ask for a fanout of one installation's
// repository.
func (a *App) fanouts(installation int64) func(ctx context.Context, owner, repo string) error {
	return func(ctx context.Context, owner, repo string) error {
		slot := board.Slot(time.Now(), a.opts.FanoutWindow)
		return a.queue.ScheduleFanout(ctx, queue.Fanout{Installation: installation, Owner: owner, Repo: repo, Slot: slot}, board.SlotEnd(slot, a.opts.FanoutWindow))
	}
}
