package app

import (
	"context"
	"time"

	"github.com/aepgate/aepgate/app/closure"
	"github.com/aepgate/aepgate/app/contract"
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

// handlers are who does each kind of work for one installation's
// judges: each feature registers its own, given its judges.
func (a *App) handlers(j *judges) *route.Handlers {
	h := new(route.Handlers)
	a.handlePulls(h, j)
	a.handleGates(h, j)
	release.Register(h, a.releaseJudge(j))
	readback.Register(h, func(_ context.Context, w route.Where) (*readback.Judge, error) { return a.readbackJudge(j, w), nil })
	deploy.Register(h, a.db, func(ctx context.Context, w route.Where) (*deploy.Judge, error) { return a.deployJudge(ctx, w, j) })
	increment.Register(h, a.incrementJudge(j))
	closure.Register(h, func(w route.Where) *closure.Judge { return a.closures(j, w) })
	heldwork.Register(h, func(route.Where) *heldwork.Judge {
		return &heldwork.Judge{Issues: j.gh, Kept: j.kept, Ledger: j.w, Rules: a.opts.Seams.HeldWorkRules, Log: j.log}
	})
	contract.Register(h, j.contracts)
	if a.opts.Seams.Handlers != nil {
		a.opts.Seams.Handlers(h)
	}
	return h
}

// handlePulls registers the pull request pipeline's work (app/pull).
func (a *App) handlePulls(h *route.Handlers, j *judges) {
	route.Handle(h, func(ctx context.Context, w route.Where, x pull.JudgePR) error {
		in := input(w)
		in.PR, in.Guesses, in.Answer, in.Siblings, in.Witness, in.Once = x.PR, x.Guesses, x.Answer, x.Siblings, x.Witness, x.Once
		return j.pull.Run(ctx, in)
	})
	route.Handle(h, func(ctx context.Context, w route.Where, x pull.Rejudge) error {
		args := queue.Rejudge{Installation: w.Installation, Owner: w.Owner, Repo: w.Repo, PR: x.PR, Siblings: x.Siblings,
			Delivery: w.Delivery, Event: w.Event, Guesses: x.Guesses}
		did, err := a.queue.ScheduleRejudge(ctx, args, a.opts.CoalesceDelay)
		if err != nil {
			return err
		}
		a.metrics.Coalesce(did)
		return nil
	})
	route.Handle(h, func(ctx context.Context, w route.Where, x pull.JudgeOpen) error {
		return j.pull.Open(ctx, input(w), x.Issue, x.Milestones)
	})
	route.Handle(h, func(ctx context.Context, w route.Where, x pull.JudgeQueued) error {
		return j.pull.Queued(ctx, input(w), pull.Group(x))
	})
	route.Handle(h, func(ctx context.Context, w route.Where, x pull.RecordPush) error {
		return a.db.RecordPusher(ctx, w.FullName(), x.SHA, x.Login, time.Now())
	})
}

// handleGates registers the owner gates' work (app/gates).
func (a *App) handleGates(h *route.Handlers, j *judges) {
	route.Handle(h, func(ctx context.Context, w route.Where, x gates.AnswerOn) error {
		in := input(w)
		in.Answer, in.Witness, in.Once = x.Answer, x.Witness, x.Once
		return j.gates.AnswerIssueComment(ctx, in, x.Thread, x.Control)
	})
	route.Handle(h, func(ctx context.Context, w route.Where, x gates.CommentChanged) error {
		done, err := j.gates.SourceChanged(ctx, input(w), gates.Change{ID: x.ID, Change: x.Change, By: x.By, Control: x.Control})
		if err != nil || done || x.Then == nil {
			return err // done, or it mattered to no decision
		}
		return h.Run(ctx, w, []route.Work{x.Then})
	})
}

// releaseJudge is the installation's release judge.
func (a *App) releaseJudge(j *judges) func(context.Context, route.Where) (*release.Judge, error) {
	return func(_ context.Context, w route.Where) (*release.Judge, error) {
		in, err := a.clients.Installation(w.Installation)
		if err != nil {
			return nil, err
		}
		return &release.Judge{Src: in, W: a.writer(in.CheckPublisher()), Download: a.clients.DownloadClient(), Locks: a.db, Log: j.log}, nil
	}
}

// incrementJudge is the installation's increment judge.
func (a *App) incrementJudge(j *judges) func(context.Context, route.Where) (*increment.Judge, error) {
	return func(ctx context.Context, w route.Where) (*increment.Judge, error) {
		in, err := a.clients.Installation(w.Installation)
		if err != nil {
			return nil, err
		}
		login, err := a.clients.AppLogin(ctx)
		if err != nil {
			return nil, err
		}
		return &increment.Judge{Src: in, Store: a.db, W: a.writer(in.CheckPublisher()), AppLogin: login, Rules: a.opts.Seams.IncrementRules, People: j.people,
			ClosureRules: a.closureRules(), Board: a.boards().For(w.Installation), Signer: a.opts.Signer, Attest: in, Log: j.log, Contracts: j.contracts}, nil
	}
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
		AppLogin: login, Rules: a.opts.Seams.DeployRules, Log: j.log, People: j.people}, nil
}
