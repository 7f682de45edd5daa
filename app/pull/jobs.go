package pull

import (
	"context"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/aepgate/aepgate/app/board"
	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
)

// RejudgeStore counts the requests of coalesced pull requests (store.DB).
type RejudgeStore interface {
	Lock(ctx context.Context, key string) (unlock func(), err error)
	RejudgeState(ctx context.Context, pr string) (store.Rejudge, error)
	RejudgeCovered(ctx context.Context, pr string, upTo int64, start time.Time) error
}

// Jobs are the pipeline's own job kinds: the rejudge job (coalesced
// requests, docs/app.md "Coalesced evaluations") and the fanout job (a
// repository's open pull requests after a control-issue change).
type Jobs struct {
	// Run does ws for w through the installation's handlers.
	Run func(ctx context.Context, w route.Where, ws []route.Work, log *slog.Logger) error
	// Store counts the rejudge requests; Delay and MaxWait are
	// Options.CoalesceDelay and CoalesceMaxWait.
	Store          RejudgeStore
	Delay, MaxWait time.Duration
	// Job counts a job's result (metrics.Set.Job).
	Job func(kind, result string, d time.Duration)
	Log *slog.Logger
}

// Kinds are the rejudge and fanout job kinds, on the deliveries' queue.
func (j *Jobs) Kinds() []queue.Kind {
	return []queue.Kind{
		{Add: func(w *river.Workers) { river.AddWorker(w, &rejudgeWorker{run: j.Rejudge}) }},
		{Add: func(w *river.Workers) { river.AddWorker(w, &fanoutWorker{run: j.Fanout}) }},
	}
}

type rejudgeWorker struct {
	river.WorkerDefaults[queue.Rejudge]
	run func(ctx context.Context, args queue.Rejudge) error
}

func (w *rejudgeWorker) Work(ctx context.Context, job *river.Job[queue.Rejudge]) error {
	return w.run(ctx, job.Args)
}

type fanoutWorker struct {
	river.WorkerDefaults[queue.Fanout]
	run func(ctx context.Context, args queue.Fanout) error
}

func (w *fanoutWorker) Work(ctx context.Context, job *river.Job[queue.Fanout]) error {
	return w.run(ctx, job.Args)
}

// Rejudge judges a coalesced pull request (a rejudge job) once its
// requests have paused for Delay, or the oldest has waited MaxWait, then
// records how many requests that judgement covered: those made before it
// read GitHub. Requests that came meanwhile snooze the job to judge once
// more; a job that finds every request covered (by another lane's
// judgement) judges nothing. A rate limit snoozes the job for as long as
// GitHub asked.
func (j *Jobs) Rejudge(ctx context.Context, args queue.Rejudge) error {
	start := time.Now()
	log := j.Log.With("installation", args.Installation, "repo", args.Owner+"/"+args.Repo, "pr", args.PR, "job", "rejudge", "delivery", args.Delivery)
	wait, err := j.rejudgeOnce(ctx, args, log)
	result := "ok"
	if limit, ok := gh.RetryWait(err, time.Now()); ok {
		result, err = "snoozed", river.JobSnooze(max(limit, 0))
	} else if err != nil {
		result = "retry"
		log.Warn("judging the pull request again failed; will retry", "err", err)
	} else if wait > 0 {
		result, err = "again", river.JobSnooze(wait)
	}
	j.Job(queue.Rejudge{}.Kind(), result, time.Since(start))
	return err
}

// rejudgeOnce judges args' pull request when its requests are due (see
// Rejudge) and returns how long to wait before running again (0: done).
func (j *Jobs) rejudgeOnce(ctx context.Context, args queue.Rejudge, log *slog.Logger) (time.Duration, error) {
	// One lane at a time: the next finds what this one covered.
	unlock, err := j.Store.Lock(ctx, "rejudge:"+args.Key())
	if err != nil {
		return 0, err
	}
	defer unlock()
	st, err := j.Store.RejudgeState(ctx, args.Key())
	if err != nil || !st.Pending() {
		return 0, err // nothing since the last judgement covered it all
	}
	start := time.Now()
	if quiet := st.Last.Add(j.Delay); start.Before(quiet) && start.Sub(st.PendingSince) < j.MaxWait {
		return quiet.Sub(start), nil // the requests are still coming
	}
	w := route.Where{Installation: args.Installation, Owner: args.Owner, Repo: args.Repo, Delivery: args.Delivery, Event: args.Event}
	if err := j.Run(ctx, w, []route.Work{JudgePR{PR: args.PR, Guesses: args.Guesses, Siblings: args.Siblings}}, log); err != nil {
		return 0, err
	}
	if err := j.Store.RejudgeCovered(ctx, args.Key(), st.Requested, start); err != nil {
		return 0, err
	}
	again, err := j.Store.RejudgeState(ctx, args.Key())
	if err != nil || !again.Pending() {
		return 0, err
	}
	return j.Delay, nil
}

// FanoutEvent is the event name of a fanout job's evaluations.
const FanoutEvent = "control_issue"

// Fanout judges the open pull requests of one repository (a fanout job).
// Its GitHub calls wait behind a delivery's own (gh.PriorityFanout). A
// rate limit snoozes the job for as long as GitHub asked.
func (j *Jobs) Fanout(ctx context.Context, args queue.Fanout) error {
	ctx = asFanout(ctx)
	start := time.Now()
	log := j.Log.With("installation", args.Installation, "repo", args.Owner+"/"+args.Repo, "job", "fanout")
	w := route.Where{Installation: args.Installation, Owner: args.Owner, Repo: args.Repo, Event: FanoutEvent}
	err := j.Run(ctx, w, []route.Work{JudgeOpen{}}, log)
	result := "ok"
	if wait, ok := gh.RetryWait(err, time.Now()); ok {
		result, err = "snoozed", river.JobSnooze(max(wait, 0))
	} else if err != nil {
		result = "retry"
		log.Warn("judging the open pull requests failed; will retry", "err", err)
	}
	j.Job(queue.Fanout{}.Kind(), result, time.Since(start))
	return err
}

// FanoutScheduler schedules fanout jobs (queue.Queue).
type FanoutScheduler interface {
	ScheduleFanout(ctx context.Context, args queue.Fanout, end time.Time) error
}

// Fanouts is the gates' way to ask for a fanout of one installation's
// repository: one job per repository and window.
func Fanouts(q FanoutScheduler, window time.Duration, installation int64) func(ctx context.Context, owner, repo string) error {
	return func(ctx context.Context, owner, repo string) error {
		slot := board.Slot(time.Now(), window)
		return q.ScheduleFanout(ctx, queue.Fanout{Installation: installation, Owner: owner, Repo: repo, Slot: slot}, board.SlotEnd(slot, window))
	}
}
