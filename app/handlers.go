package app

import (
	"context"
	"time"

	"github.com/aepgate/aepgate/app/closure"
	acontract "github.com/aepgate/aepgate/app/contract"
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
// evaluator: each feature registers its own, given its judges.
func (a *App) handlers(ev *evaluator) *route.Handlers {
	h := new(route.Handlers)
	a.handlePulls(h, ev)
	a.handleGates(h, ev)
	release.Register(h, a.releaseJudge(ev))
	readback.Register(h, func(_ context.Context, w route.Where) (*readback.Judge, error) { return a.readbackJudge(ev, w) })
	deploy.Register(h, a.db, func(ctx context.Context, w route.Where) (*deploy.Judge, error) { return a.deployJudge(ctx, w, ev) })
	increment.Register(h, a.incrementJudge(ev))
	closure.Register(h, func(w route.Where) *closure.Judge { return ev.closures(input(w)) })
	heldwork.Register(h, func(route.Where) *heldwork.Judge {
		return &heldwork.Judge{Issues: ev.issues, Kept: ev.kept, Ledger: ev.w, Rules: a.opts.heldWorkRules, Log: ev.log}
	})
	acontract.Register(h, ev.contracts)
	if a.opts.handlers != nil {
		a.opts.handlers(h)
	}
	return h
}

// input is the evaluation context of work done for w.
func input(w route.Where) evalInput {
	return evalInput{delivery: w.Delivery, event: w.Event, owner: w.Owner, repo: w.Repo, sweep: w.Sweep}
}

// handlePulls registers the pull request pipeline's work (app/pull).
func (a *App) handlePulls(h *route.Handlers, ev *evaluator) {
	route.Handle(h, func(ctx context.Context, w route.Where, j pull.JudgePR) error {
		in := input(w)
		in.pr, in.guesses, in.answer, in.siblings, in.witness, in.once = j.PR, j.Guesses, j.Answer, j.Siblings, j.Witness, j.Once
		return ev.evaluatePR(ctx, in)
	})
	route.Handle(h, func(ctx context.Context, w route.Where, j pull.Rejudge) error {
		args := queue.Rejudge{Installation: w.Installation, Owner: w.Owner, Repo: w.Repo, PR: j.PR, Siblings: j.Siblings,
			Delivery: w.Delivery, Event: w.Event, Guesses: j.Guesses}
		did, err := a.queue.ScheduleRejudge(ctx, args, a.opts.CoalesceDelay)
		if err != nil {
			return err
		}
		a.metrics.Coalesce(did)
		return nil
	})
	route.Handle(h, func(ctx context.Context, w route.Where, j pull.JudgeOpen) error {
		return ev.judgeOpen(ctx, input(w), j.Issue, j.Milestones)
	})
	route.Handle(h, func(ctx context.Context, w route.Where, j pull.JudgeQueued) error {
		return ev.judgeGroup(ctx, input(w), pull.MergeGroup(j))
	})
	route.Handle(h, func(ctx context.Context, w route.Where, j pull.RecordPush) error {
		return a.db.RecordPusher(ctx, w.FullName(), j.SHA, j.Login, time.Now())
	})
}

// handleGates registers the owner gates' work (app/gates).
func (a *App) handleGates(h *route.Handlers, ev *evaluator) {
	route.Handle(h, func(ctx context.Context, w route.Where, j gates.AnswerOn) error {
		in := input(w)
		in.answer, in.witness, in.once = j.Answer, j.Witness, j.Once
		return ev.answerThread(ctx, in, j.Thread, j.Control)
	})
	route.Handle(h, func(ctx context.Context, w route.Where, j gates.CommentChanged) error {
		kept, err := ev.kept.MarkTampered(ctx, w.FullName(), j.ID, j.Change, j.By, time.Now())
		if err != nil {
			return err
		}
		if kept {
			ev.log.Warn("a kept decision's source was changed; the decision stays in force", "comment", j.ID, "change", j.Change, "by", j.By)
		}
		switch {
		case j.Control && kept:
			// Every pull request then shows the tampering.
			return ev.fanout(ctx, input(w))
		case j.Then == nil:
			return nil // it mattered to no decision
		}
		return h.Run(ctx, w, []route.Work{j.Then})
	})
}

// releaseJudge is the installation's release judge.
func (a *App) releaseJudge(ev *evaluator) func(context.Context, route.Where) (*release.Judge, error) {
	return func(_ context.Context, w route.Where) (*release.Judge, error) {
		in, err := a.clients.Installation(w.Installation)
		if err != nil {
			return nil, err
		}
		return &release.Judge{Src: in, W: a.writer(in.CheckPublisher()), Download: a.clients.DownloadClient(), Locks: a.db, Log: ev.log}, nil
	}
}

// incrementJudge is the installation's increment judge.
func (a *App) incrementJudge(ev *evaluator) func(context.Context, route.Where) (*increment.Judge, error) {
	return func(ctx context.Context, w route.Where) (*increment.Judge, error) {
		in, err := a.clients.Installation(w.Installation)
		if err != nil {
			return nil, err
		}
		login, err := a.clients.AppLogin(ctx)
		if err != nil {
			return nil, err
		}
		return &increment.Judge{Src: in, Store: a.db, W: a.writer(in.CheckPublisher()), AppLogin: login, Rules: a.opts.incrementRules, People: ev.people,
			ClosureRules: a.closureRules(), Board: a.boards().For(w.Installation), Signer: a.opts.Signer, Attest: in, Log: ev.log, Contracts: ev.contracts}, nil
	}
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
		AppLogin: login, Rules: a.opts.deployRules, Log: ev.log, People: ev.people}, nil
}
