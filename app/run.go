package app

import (
	"context"
	"time"

	aclosure "github.com/aepgate/aepgate/app/closure"
	"github.com/aepgate/aepgate/app/deploy"
	"github.com/aepgate/aepgate/app/gates"
	"github.com/aepgate/aepgate/app/heldwork"
	"github.com/aepgate/aepgate/app/increment"
	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/app/release"
	"github.com/aepgate/aepgate/app/route"
)

// Events is every webhook event the App handles, sorted: the events of its
// family table (route.Defaults), which the manifest subscribes to.
func Events() []string { return route.Events() }

// runner does the typed work of app/route with one installation's judges
// (route.Runner).
type runner struct {
	a *App
	j *judges
}

var _ route.Runner = runner{}

func (r runner) JudgePR(ctx context.Context, w route.Where, j route.JudgePR) error {
	in := input(w)
	in.PR, in.Guesses, in.Answer, in.Siblings, in.Witness, in.Once = j.PR, j.Guesses, j.Answer, j.Siblings, j.Witness, j.Once
	return r.j.pull.Run(ctx, in)
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
	return r.j.pull.Open(ctx, input(w), j.Issue, j.Milestones)
}

func (r runner) AnswerOn(ctx context.Context, w route.Where, j route.AnswerOn) error {
	in := input(w)
	in.Answer, in.Witness, in.Once = j.Answer, j.Witness, j.Once
	return r.j.gates.AnswerIssueComment(ctx, in, j.Thread, j.Control)
}

func (r runner) CommentChanged(ctx context.Context, w route.Where, j route.CommentChanged) error {
	done, err := r.j.gates.SourceChanged(ctx, input(w), gates.Change{ID: j.ID, Change: j.Change, By: j.By, Control: j.Control})
	if err != nil || done || j.Then == nil {
		return err // done, or it mattered to no decision
	}
	return j.Then.Run(ctx, r, w)
}

func (r runner) JudgeRelease(ctx context.Context, w route.Where, j route.JudgeRelease) error {
	in, err := r.a.clients.Installation(w.Installation)
	if err != nil {
		return err
	}
	jd := &release.Judge{Src: in, W: r.a.writer(in.CheckPublisher()), Download: r.a.clients.DownloadClient(), Locks: r.a.db, Log: r.j.log}
	return jd.Run(ctx, release.Input{Delivery: w.Delivery, Event: w.Event, Owner: w.Owner, Repo: w.Repo, Tag: j.Tag})
}

func (r runner) ReadBack(ctx context.Context, w route.Where, j route.ReadBack) error {
	return r.a.runReadback(ctx, r.j, w, readback.Target(j))
}

func (r runner) JudgeQueued(ctx context.Context, w route.Where, j route.JudgeQueued) error {
	return r.j.pull.Queued(ctx, input(w), pull.Group(j))
}

func (r runner) RecordPush(ctx context.Context, w route.Where, j route.RecordPush) error {
	return r.a.db.RecordPusher(ctx, w.FullName(), j.SHA, j.Login, time.Now())
}

func (r runner) JudgeClosure(ctx context.Context, w route.Where, j route.JudgeClosure) error {
	return r.a.closures(r.j, w).Closure(ctx, closureInput(w), aclosure.Closed(j))
}

// KeepContract keeps an issue's contract from a signed delivery's body (app/contract).
func (r runner) KeepContract(ctx context.Context, w route.Where, j route.KeepContract) error {
	return r.j.contracts.First(ctx, w.Delivery, w.FullName(), j.Issue, j.Body)
}

func (r runner) CloseCommand(ctx context.Context, w route.Where, j route.CloseCommand) error {
	return r.a.closures(r.j, w).Command(ctx, closureInput(w), aclosure.Said(j))
}

func (r runner) JudgeDeploy(ctx context.Context, w route.Where, j route.JudgeDeploy) error {
	d, err := r.a.deployJudge(ctx, w, r.j)
	if err != nil {
		return err
	}
	return d.Request(ctx, deployInput(w), deploy.Request(j))
}

func (r runner) JudgeDeploys(ctx context.Context, w route.Where, _ route.JudgeDeploys) error {
	if pending, err := r.a.db.PendingDeploys(ctx, w.FullName()); err != nil || len(pending) == 0 {
		return err // nothing waits: no call to GitHub
	}
	d, err := r.a.deployJudge(ctx, w, r.j)
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
	jd := &increment.Judge{Src: in, Store: r.a.db, W: r.a.writer(in.CheckPublisher()), AppLogin: login, Rules: r.a.opts.incrementRules, People: r.j.people,
		ClosureRules: r.a.closureRules(), Board: r.a.boards().For(w.Installation), Signer: r.a.opts.Signer, Attest: in, Log: r.j.log, Contracts: r.j.contracts}
	return jd.Judge(ctx, increment.Input{Delivery: w.Delivery, Event: w.Event, Owner: w.Owner, Repo: w.Repo},
		increment.Ask{Milestones: j.Milestones, Open: j.Open, Closed: w.Event == reconcileEvent && !r.a.opts.openMilestonesOnly,
			OnlyAtMerge: j.AtMerge, ClosedBy: j.ClosedBy, EditedBy: j.EditedBy, EditedTo: j.EditedTo})
}

func deployInput(w route.Where) deploy.Input {
	return deploy.Input{Delivery: w.Delivery, Event: w.Event, Installation: w.Installation, Owner: w.Owner, Repo: w.Repo}
}

// deployJudge is the installation's deployment judge.
func (a *App) deployJudge(ctx context.Context, w route.Where, j *judges) (*deploy.Judge, error) {
	in, err := a.clients.Installation(w.Installation)
	if err != nil {
		return nil, err
	}
	login, err := a.clients.AppLogin(ctx)
	if err != nil {
		return nil, err
	}
	return &deploy.Judge{Src: in, Store: a.db, W: a.writer(in.CheckPublisher()), Increments: increment.Deployable{Checks: in},
		AppLogin: login, Rules: a.opts.deployRules, Log: j.log, People: j.people}, nil
}

func (r runner) HeldWork(ctx context.Context, w route.Where, j route.HeldWork) error {
	jd := heldwork.Judge{Issues: r.j.gh, Kept: r.j.kept, Ledger: r.j.w, Rules: r.a.opts.heldWorkRules, Log: r.j.log}
	return jd.Answer(ctx, heldwork.Input{Delivery: w.Delivery, Owner: w.Owner, Repo: w.Repo}, heldwork.Work(j))
}
