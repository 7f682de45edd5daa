package app

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"github.com/aepgate/aepgate/app/queue"
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
	ev, err := a.evaluator(args.Installation, log)
	if err != nil {
		return 0, err
	}
	w := where{installation: args.Installation, owner: args.Owner, repo: args.Repo, delivery: args.Delivery, event: args.Event}
	if err := (judgePR{pr: args.PR, guesses: args.Guesses, siblings: args.Siblings}).run(ctx, a, ev, w); err != nil {
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
	args := queue.Rejudge{Installation: w.installation, Owner: w.owner, Repo: w.repo, PR: j.pr, Siblings: j.siblings,
		Delivery: w.delivery, Event: w.event, Guesses: j.guesses}
	did, err := a.queue.ScheduleRejudge(ctx, args, a.opts.CoalesceDelay)
	if err != nil {
		return err
	}
	a.metrics.Coalesce(did)
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
