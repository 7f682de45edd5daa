package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
)

// rejudgeArgs is the job that judges one pull request again for every
// delivery that only asked for that (a comment without a request, a review
// edited or dismissed, a check re-run, a completed workflow run) while it
// waited: such deliveries coalesce
// into it instead of each running an evaluation of their own (coalesce).
type rejudgeArgs struct {
	Installation int64  `json:"installation" river:"unique"`
	Owner        string `json:"owner" river:"unique"`
	Repo         string `json:"repo" river:"unique"`
	PR           int    `json:"pr" river:"unique"`
	// Siblings judges the unit's other open pull requests next.
	Siblings bool `json:"siblings" river:"unique"`
	// Lane tells a follow-up from the job already running (coalesce).
	Lane int `json:"lane" river:"unique"`
	// Delivery and Event are the first coalesced delivery's, for the
	// ledger; Guesses the units its payload named.
	Delivery string `json:"delivery"`
	Event    string `json:"event"`
	Guesses  []int  `json:"guesses,omitempty"`
}

// Kind names the job kind in River's table.
func (rejudgeArgs) Kind() string { return "aepgate_rejudge" }

// rejudgeLanes is how many jobs of one pull request may exist at once:
// usually one running and one waiting; a third covers the moment both of
// those run.
const rejudgeLanes = 3

// rejudgeUnique makes a rejudge job unique by its pull request and lane
// while it waits or runs (River requires the running state in the set).
var rejudgeUnique = river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
	rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
	rivertype.JobStateScheduled, rivertype.JobStateRetryable}}

// inserted is what one rejudge request did.
type inserted int

const (
	// queuedNew: no job of the pull request was waiting; one was inserted.
	queuedNew inserted = iota
	// merged: a job waits that will see this request when it runs.
	merged
)

// errLanesBusy is a request that found every lane's job running, each
// perhaps past its last look at the requests: the delivery is retried.
var errLanesBusy = errors.New("every job judging this pull request again is finishing; retry")

// scheduleRejudge counts a request to judge args' pull request again and
// makes sure a job will see it, in one transaction: the first lane with
// no job gets one, CoalesceDelay from now; a lane whose job waits takes
// the request as it is. A running job counts too, as long as it has not
// looked at the requests for the last time (runRejudge), which it cannot
// say: so a running lane is passed over for the next one, and when every
// lane runs the request is retried. A request is never dropped.
func (q *riverQueue[TTx]) scheduleRejudge(ctx context.Context, args rejudgeArgs, delay time.Duration) (inserted, error) {
	var did inserted
	err := q.db.InTx(ctx, func(tx store.Tx) error {
		if err := store.RequestRejudge(ctx, tx, args.key(), time.Now()); err != nil {
			return err
		}
		for lane := range rejudgeLanes {
			args.Lane = lane
			res, err := q.client.InsertTx(ctx, tx.Raw().(TTx), args, &river.InsertOpts{UniqueOpts: rejudgeUnique, ScheduledAt: time.Now().Add(delay)})
			if err != nil {
				return err
			}
			switch {
			case !res.UniqueSkippedAsDuplicate:
				did = queuedNew
				return nil
			case res.Job.State != rivertype.JobStateRunning:
				did = merged
				return nil
			}
		}
		return errLanesBusy
	})
	if err != nil {
		return 0, fmt.Errorf("schedule judging %s again: %w", args.key(), err)
	}
	return did, nil
}

// key names the requests' counter: the pull request, and whether its
// unit's other pull requests are judged with it.
func (r rejudgeArgs) key() string {
	k := fmt.Sprintf("%s/%s#%d", r.Owner, r.Repo, r.PR)
	if r.Siblings {
		k += "+siblings"
	}
	return k
}

// rejudgeWorker runs rejudge jobs.
type rejudgeWorker struct {
	river.WorkerDefaults[rejudgeArgs]
	run jobRunner
}

func (w *rejudgeWorker) Work(ctx context.Context, job *river.Job[rejudgeArgs]) error {
	return w.run.runRejudge(ctx, job.Args)
}

// runRejudge judges a coalesced pull request (a rejudge job) once its
// requests have paused for CoalesceDelay, or the oldest has waited
// CoalesceMaxWait, then records how many requests that judgement covered:
// those made before it read GitHub. Requests that came meanwhile snooze
// the job to judge once more; a job that finds every request covered (by
// another lane's judgement) judges nothing. A rate limit snoozes the job
// for as long as GitHub asked.
func (a *App) runRejudge(ctx context.Context, args rejudgeArgs) error {
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
	a.metrics.job(rejudgeArgs{}.Kind(), result, time.Since(start))
	return err
}

// rejudgeOnce judges args' pull request when its requests are due (see
// runRejudge) and returns how long to wait before running again (0: done).
func (a *App) rejudgeOnce(ctx context.Context, args rejudgeArgs, log *slog.Logger) (time.Duration, error) {
	// One lane at a time: the next finds what this one covered.
	unlock, err := a.db.Lock(ctx, "rejudge:"+args.key())
	if err != nil {
		return 0, err
	}
	defer unlock()
	st, err := a.db.RejudgeState(ctx, args.key())
	if err != nil || !st.Pending() {
		return 0, err // nothing since the last judgement covered it all
	}
	start := time.Now()
	if quiet := st.Last.Add(a.opts.CoalesceDelay); start.Before(quiet) && start.Sub(st.PendingSince) < a.opts.CoalesceMaxWait {
		return quiet.Sub(start), nil // the requests are still coming
	}
	ev, err := a.evaluator(args.Installation, log)
	if err != nil {
		return 0, err
	}
	w := where{installation: args.Installation, owner: args.Owner, repo: args.Repo, delivery: args.Delivery, event: args.Event}
	if err := (judgePR{pr: args.PR, guesses: args.Guesses, siblings: args.Siblings}).run(ctx, a, ev, w); err != nil {
		return 0, err
	}
	if err := a.db.RejudgeCovered(ctx, args.key(), st.Requested, start); err != nil {
		return 0, err
	}
	again, err := a.db.RejudgeState(ctx, args.key())
	if err != nil || !again.Pending() {
		return 0, err
	}
	return a.opts.CoalesceDelay, nil
}

// coalescible reports whether x only asks for a pull request to be judged
// again: a judgePR answering nothing, or answering a created comment that
// carries no request (no line starting with a slash, no fenced block), so
// that nothing but the judgement is owed to it.
func coalescible(x work) bool {
	j, ok := x.(judgePR)
	switch {
	case !ok:
		return false
	case j.answer == 0 && j.witness == nil:
		return true
	case j.witness == nil || j.witness.Comment.ID != j.answer:
		return false
	}
	return !mayRequest(j.witness.Comment.Body)
}

// mayRequest reports whether a comment body may hold a command or a gate
// block, under any command prefix a config allows (a slash and a word):
// a line whose first non-blank character is a slash, or a code fence.
func mayRequest(body string) bool {
	for line := range strings.Lines(body) {
		l := strings.TrimLeft(line, " \t>")
		if strings.HasPrefix(l, "/") || strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
			return true
		}
	}
	return false
}

// rejudge is the coalesced form of a judgePR: it asks for a rejudge job
// instead of judging at once.
type rejudge judgePR

func (j rejudge) run(ctx context.Context, a *App, _ *evaluator, w where) error {
	args := rejudgeArgs{Installation: w.installation, Owner: w.owner, Repo: w.repo, PR: j.pr, Siblings: j.siblings,
		Delivery: w.delivery, Event: w.event, Guesses: j.guesses}
	did, err := a.queue.scheduleRejudge(ctx, args, a.opts.CoalesceDelay)
	if err != nil {
		return err
	}
	a.metrics.coalesce(did)
	return nil
}

// coalescedEvents are the events whose requests to judge a pull request
// again may coalesce: conversation, reviews, checks and workflow runs.
// A pull request's own events (a new head, an edited body) are judged at
// once.
var coalescedEvents = []string{"issue_comment", "pull_request_review", "check_run", "check_suite", "workflow_run"}

// coalesce replaces each coalescible piece of a delivery's work by its
// rejudge; Options.coalesce (a negative control) may keep some as they are.
func (a *App) coalesce(event string, ws []work) []work {
	ok := func(event string, x work) bool { return slices.Contains(coalescedEvents, event) && coalescible(x) }
	if a.opts.coalesce != nil {
		ok = a.opts.coalesce
	}
	out := make([]work, len(ws))
	for i, x := range ws {
		out[i] = x
		if j, isPR := x.(judgePR); isPR && ok(event, x) {
			out[i] = rejudge(j)
		}
	}
	return out
}
