package app

import (
	"context"
	"time"

	aclosure "github.com/aepgate/aepgate/app/closure"
	"github.com/aepgate/aepgate/app/deploy"
	"github.com/aepgate/aepgate/app/heldwork"
	"github.com/aepgate/aepgate/app/increment"
	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/app/release"
	"github.com/aepgate/aepgate/app/route"
)

// Events is every webhook event the App handles, sorted: the events of its
// family table (route.Defaults), which the manifest subscribes to.
func Events() []string { return route.Events() }

// runner does the typed work of app/route for one installation's
// evaluator (route.Runner).
type runner struct {
	a  *App
	ev *evaluator
}

var _ route.Runner = runner{}

// input is the evaluation context of work done for w.
func input(w route.Where) evalInput {
	return evalInput{delivery: w.Delivery, event: w.Event, owner: w.Owner, repo: w.Repo, sweep: w.Event == reconcileEvent}
}

func (r runner) JudgePR(ctx context.Context, w route.Where, j route.JudgePR) error {
	in := input(w)
	in.pr, in.guesses, in.answer, in.siblings, in.witness, in.once = j.PR, j.Guesses, j.Answer, j.Siblings, j.Witness, j.Once
	return r.ev.evaluatePR(ctx, in)
}

func (r runner) Rejudge(ctx context.Context, w route.Where, j route.Rejudge) error {
	args := queue.Rejudge{Installation: w.Installation, Owner: w.Owner, Repo: w.Repo, PR: j.PR, Siblings: j.Siblings,
		Delivery: w.Delivery, Event: w.Event, Guesses: j.Guesses}
	did, err := r.a.queue.ScheduleRejudge(ctx, args, r.a.opts.CoalesceDelay)
	if err != nil {
		return err
	}
	r.a.metrics.Coalesce(did)
	return nil
}

func (r runner) JudgeOpen(ctx context.Context, w route.Where, j route.JudgeOpen) error {
	return r.ev.judgeOpen(ctx, input(w), j.Issue, j.Milestones)
}

func (r runner) AnswerOn(ctx context.Context, w route.Where, j route.AnswerOn) error {
	in := input(w)
	in.answer, in.witness, in.once = j.Answer, j.Witness, j.Once
	return r.ev.answerThread(ctx, in, j.Thread, j.Control)
}

func (r runner) CommentChanged(ctx context.Context, w route.Where, j route.CommentChanged) error {
	kept, err := r.ev.kept.MarkTampered(ctx, w.FullName(), j.ID, j.Change, j.By, time.Now())
	if err != nil {
		return err
	}
	if kept {
		r.ev.log.Warn("a kept decision's source was changed; the decision stays in force", "comment", j.ID, "change", j.Change, "by", j.By)
	}
	switch {
	case j.Control && kept:
		// Every pull request then shows the tampering.
		return r.ev.fanout(ctx, input(w))
	case j.Then == nil:
		return nil // it mattered to no decision
	}
	return j.Then.Run(ctx, r, w)
}

func (r runner) JudgeRelease(ctx context.Context, w route.Where, j route.JudgeRelease) error {
	in, err := r.a.clients.Installation(w.Installation)
	if err != nil {
		return err
	}
	jd := &release.Judge{Src: in, W: r.a.writer(in.CheckPublisher()), Download: r.a.clients.DownloadClient(), Locks: r.a.db, Log: r.ev.log}
	return jd.Run(ctx, release.Input{Delivery: w.Delivery, Event: w.Event, Owner: w.Owner, Repo: w.Repo, Tag: j.Tag})
}

func (r runner) ReadBack(ctx context.Context, w route.Where, j route.ReadBack) error {
	return r.a.runReadback(ctx, r.ev, w, readback.Target(j))
}

func (r runner) JudgeQueued(ctx context.Context, w route.Where, j route.JudgeQueued) error {
	return r.ev.judgeGroup(ctx, input(w), route.MergeGroup(j))
}

func (r runner) RecordPush(ctx context.Context, w route.Where, j route.RecordPush) error {
	return r.a.db.RecordPusher(ctx, w.FullName(), j.SHA, j.Login, time.Now())
}

func (r runner) JudgeClosure(ctx context.Context, w route.Where, j route.JudgeClosure) error {
	return r.ev.closures(input(w)).Closure(ctx, closureInput(input(w)), aclosure.Closed(j))
}

// KeepContract keeps an issue's contract from a signed delivery's body (app/contract).
func (r runner) KeepContract(ctx context.Context, w route.Where, j route.KeepContract) error {
	return r.ev.contracts.First(ctx, w.Delivery, w.FullName(), j.Issue, j.Body)
}

func (r runner) CloseCommand(ctx context.Context, w route.Where, j route.CloseCommand) error {
	return r.ev.closures(input(w)).Command(ctx, closureInput(input(w)), aclosure.Said(j))
}

func (r runner) JudgeDeploy(ctx context.Context, w route.Where, j route.JudgeDeploy) error {
	d, err := r.a.deployJudge(ctx, w, r.ev)
	if err != nil {
		return err
	}
	return d.Request(ctx, deployInput(w), deploy.Request(j))
}

func (r runner) JudgeDeploys(ctx context.Context, w route.Where, _ route.JudgeDeploys) error {
	if pending, err := r.a.db.PendingDeploys(ctx, w.FullName()); err != nil || len(pending) == 0 {
		return err // nothing waits: no call to GitHub
	}
	d, err := r.a.deployJudge(ctx, w, r.ev)
	if err != nil {
		return err
	}
	return d.Pending(ctx, deployInput(w), w.Event == reconcileEvent)
}

func (r runner) JudgeIncrements(ctx context.Context, w route.Where, j route.JudgeIncrements) error {
	in, err := r.a.clients.Installation(w.Installation)
	if err != nil {
		return err
	}
	login, err := r.a.clients.AppLogin(ctx)
	if err != nil {
		return err
	}
	jd := &increment.Judge{Src: in, Store: r.a.db, W: r.a.writer(in.CheckPublisher()), AppLogin: login, Rules: r.a.opts.Seams.IncrementRules, People: r.ev.people,
		ClosureRules: r.a.closureRules(), Board: r.a.boards().For(w.Installation), Signer: r.a.opts.Signer, Attest: in, Log: r.ev.log, Contracts: r.ev.contracts}
	return jd.Judge(ctx, increment.Input{Delivery: w.Delivery, Event: w.Event, Owner: w.Owner, Repo: w.Repo},
		increment.Ask{Milestones: j.Milestones, Open: j.Open, Closed: w.Event == reconcileEvent && !r.a.opts.Seams.OpenMilestonesOnly,
			OnlyAtMerge: j.AtMerge, ClosedBy: j.ClosedBy, EditedBy: j.EditedBy, EditedTo: j.EditedTo})
}

func deployInput(w route.Where) deploy.Input {
	return deploy.Input{Delivery: w.Delivery, Event: w.Event, Installation: w.Installation, Owner: w.Owner, Repo: w.Repo}
}

// deployJudge is the installation's deployment judge.
func (a *App) deployJudge(ctx context.Context, w route.Where, ev *evaluator) (*deploy.Judge, error) {
	in, err := a.clients.Installation(w.Installation)
	if err != nil {
		return nil, err
	}
	login, err := a.clients.AppLogin(ctx)
	if err != nil {
		return nil, err
	}
	return &deploy.Judge{Src: in, Store: a.db, W: a.writer(in.CheckPublisher()), Increments: increment.Deployable{Checks: in},
		AppLogin: login, Rules: a.opts.Seams.DeployRules, Log: ev.log, People: ev.people}, nil
}

func (r runner) HeldWork(ctx context.Context, w route.Where, j route.HeldWork) error {
	jd := heldwork.Judge{Issues: r.ev.issues, Kept: r.ev.kept, Ledger: r.ev.w, Rules: r.a.opts.Seams.HeldWorkRules, Log: r.ev.log}
	return jd.Answer(ctx, heldwork.Input{Delivery: w.Delivery, Owner: w.Owner, Repo: w.Repo}, heldwork.Work(j))
}
