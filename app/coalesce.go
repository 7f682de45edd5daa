package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/internal/gh"
)

// runRejudge judges a coalesced pull request (a rejudge job) once its
// requests have paused for CoalesceDelay, or the oldest has waited
// CoalesceMaxWait, then records how many requests that judgement covered:
// those made before it read GitHub. Requests that came meanwhile snooze
// the job to judge once more; a job that finds every request covered (by
// another lane's judgement) judges nothing. A rate limit snoozes the job
// for as long as GitHub asked.
func (a *App) runRejudge(ctx context.Context, args queue.Rejudge) error {
	start := time.Now()
	log := a.log.With("installation", args.Installation, "repo", args.Owner+"/"+args.Repo, "pr", args.PR, "job", "rejudge", "delivery", args.Delivery)
	wait, err := a.rejudgeOnce(ctx, args, log)
	result := "ok"
	if limit, ok := gh.RetryWait(err, time.Now()); ok {
		result, err = "snoozed", river.JobSnooze(max(limit, 0))
	} else if err != nil {
		result = "retry"
		log.Warn("judging the pull request again failed; will retry", "err", err)
	} else if wait > 0 {
		result, err = "again", river.JobSnooze(wait)
	}
	a.metrics.Job(queue.Rejudge{}.Kind(), result, time.Since(start))
	return err
}

// rejudgeOnce judges args' pull request when its requests are due (see
// runRejudge) and returns how long to wait before running again (0: done).
func (a *App) rejudgeOnce(ctx context.Context, args queue.Rejudge, log *slog.Logger) (time.Duration, error) {
	// One lane at a time: the next finds what this one covered.
	unlock, err := a.db.Lock(ctx, "rejudge:"+args.Key())
	if err != nil {
		return 0, err
	}
	defer unlock()
	st, err := a.db.RejudgeState(ctx, args.Key())
	if err != nil || !st.Pending() {
		return 0, err // nothing since the last judgement covered it all
	}
	start := time.Now()
	if quiet := st.Last.Add(a.opts.CoalesceDelay); start.Before(quiet) && start.Sub(st.PendingSince) < a.opts.CoalesceMaxWait {
		return quiet.Sub(start), nil // the requests are still coming
	}
	j, err := a.judges(args.Installation, log)
	if err != nil {
		return 0, err
	}
	w := route.Where{Installation: args.Installation, Owner: args.Owner, Repo: args.Repo, Delivery: args.Delivery, Event: args.Event}
	if err := a.handlers(j).Run(ctx, w, []route.Work{pull.JudgePR{PR: args.PR, Guesses: args.Guesses, Siblings: args.Siblings}}); err != nil {
		return 0, err
	}
	if err := a.db.RejudgeCovered(ctx, args.Key(), st.Requested, start); err != nil {
		return 0, err
	}
	again, err := a.db.RejudgeState(ctx, args.Key())
	if err != nil || !again.Pending() {
		return 0, err
	}
	return a.opts.CoalesceDelay, nil
}

// coalesce replaces each piece of a delivery's work that its family
// coalesces (route.Family.Coalesce) by its coalesced form;
// Options.coalesce (a negative control) may keep some as they are.
func (a *App) coalesce(event string, ws []route.Work) []route.Work {
	return a.families.Coalesce(event, ws, func(x route.Work) bool { return a.opts.Seams.Coalesce == nil || a.opts.Seams.Coalesce(event, x) })
}
