package app

import (
	"context"
	"time"

	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/app/release"
	"github.com/aepgate/aepgate/app/verdict"
)

// where is what a piece of work runs for: the repository and the delivery
// (or the sweep, or a fanout) that asked for it.
type where struct {
	installation int64
	owner, repo  string
	// delivery is the webhook delivery's ID ("" for the sweep and fanouts)
	// and event its event (reconcileEvent, fanoutEvent for those).
	delivery, event string
}

// input is the evaluation context of work done for w.
func (w where) input() evalInput {
	return evalInput{delivery: w.delivery, event: w.event, owner: w.owner, repo: w.repo, sweep: w.event == reconcileEvent}
}

// work is one typed piece of work a family derives from a delivery (or the
// sweep and fanouts produce): it runs itself with the installation's
// evaluator.
type work interface {
	run(ctx context.Context, a *App, ev *evaluator, w where) error
}

// judgePR judges one pull request's head; answer is the comment or review
// whose requests it answers, siblings asks for the unit's other open pull
// requests next (the conversation changed), guesses are the units its body
// named in the payload.
type judgePR struct {
	pr       int
	guesses  []int
	answer   int64
	siblings bool
	witness  *verdict.Witness
	once     bool // answer only if never answered (evalInput.once)
}

func (j judgePR) run(ctx context.Context, _ *App, ev *evaluator, w where) error {
	in := w.input()
	in.pr, in.guesses, in.answer, in.siblings, in.witness, in.once = j.pr, j.guesses, j.answer, j.siblings, j.witness, j.once
	return ev.evaluatePR(ctx, in)
}

// judgeOpen judges the repository's open pull requests that name a unit:
// only those whose unit issue or milestones (when set) affect, else all.
type judgeOpen struct {
	issue      int
	milestones []int
}

func (j judgeOpen) run(ctx context.Context, _ *App, ev *evaluator, w where) error {
	return ev.judgeOpen(ctx, w.input(), j.issue, j.milestones)
}

// answerOn answers a comment on an issue's conversation: the unit's issue
// (then its attempts are judged) or the control issue (then, if it changed
// a decision, every open pull request, coalesced).
type answerOn struct {
	thread  int
	control bool
	answer  int64
	witness *verdict.Witness
	once    bool // answer only if never answered (evalInput.once)
}

func (j answerOn) run(ctx context.Context, _ *App, ev *evaluator, w where) error {
	in := w.input()
	in.answer, in.witness, in.once = j.answer, j.witness, j.once
	return ev.answerThread(ctx, in, j.thread, j.control)
}

// commentChanged is a comment GitHub reported edited or deleted: it is
// recorded as tampering when it is a kept decision's source, and the
// conversation is judged again (on the control issue only for a kept one).
type commentChanged struct {
	id         int64
	change, by string
	// then is what to judge again: a judgePR or answerOn without answer.
	then    work
	control bool
}

func (j commentChanged) run(ctx context.Context, a *App, ev *evaluator, w where) error {
	kept, err := ev.kept.MarkTampered(ctx, w.owner+"/"+w.repo, j.id, j.change, j.by, time.Now())
	if err != nil {
		return err
	}
	if kept {
		ev.log.Warn("a kept decision's source was changed; the decision stays in force", "comment", j.id, "change", j.change, "by", j.by)
	}
	switch {
	case j.control && kept:
		// Every pull request then shows the tampering.
		return ev.fanout(ctx, w.input())
	case j.control:
		return nil // it mattered to no decision
	}
	return j.then.run(ctx, a, ev, w)
}

// judgeRelease verifies a release's closure: tag's, or the Latest
// release's when latest is set.
type judgeRelease struct {
	tag    string
	latest bool
}

func (j judgeRelease) run(ctx context.Context, a *App, ev *evaluator, w where) error {
	in, err := a.clients.Installation(w.installation)
	if err != nil {
		return err
	}
	r := &release.Judge{Src: in, W: a.writer(in.CheckPublisher()), Download: a.clients.DownloadClient(), Locks: a.db, Log: ev.log}
	return r.Run(ctx, release.Input{Delivery: w.delivery, Event: w.event, Owner: w.owner, Repo: w.repo, Tag: j.tag})
}

// readBack reads back a merge on the default branch (readback.Target).
type readBack readback.Target

func (j readBack) run(ctx context.Context, a *App, ev *evaluator, w where) error {
	return a.runReadback(ctx, ev, w, readback.Target(j))
}

// judgeQueued judges a merge queue's group commit for the pull request
// it queues.
type judgeQueued mergeGroup

func (j judgeQueued) run(ctx context.Context, _ *App, ev *evaluator, w where) error {
	return ev.judgeGroup(ctx, w.input(), mergeGroup(j))
}

// recordPush keeps who moved a branch to which commit, so the audit counts
// the pusher as an author of it; it runs before the delivery's other work.
type recordPush pushed

func (j recordPush) run(ctx context.Context, a *App, _ *evaluator, w where) error {
	return a.db.RecordPusher(ctx, w.owner+"/"+w.repo, j.SHA, j.Login, time.Now())
}

// sweepWork is what the periodic sweep does for each repository: judge the
// open pull requests, verify the Latest release (GitHub sends no event when
// a release asset changes), read back recent merges and judge the
// deployments still waiting.
func sweepWork() []work {
	return []work{judgeOpen{}, judgeRelease{latest: true}, readBack{Sweep: true}, judgeDeploys{}, judgeIncrements{open: true}}
}

// runWork runs each piece of work in order; the first error stops it.
func (a *App) runWork(ctx context.Context, ev *evaluator, w where, ws []work) error {
	for _, x := range ws {
		if err := x.run(ctx, a, ev, w); err != nil {
			return err
		}
	}
	return nil
}
