package app

import (
	"context"
	"time"

	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/closure"
)

// runReadback reads back what t names (package app/readback) for the
// installation w runs for, with j's writer, board and logger, and the
// audits the pull judge decides (pull.Judge.Audited).
func (a *App) runReadback(ctx context.Context, j *judges, w route.Where, t readback.Target) error {
	audited := func(ctx context.Context, owner, repo string, m *gh.MergedPull) (readback.Audit, error) {
		au, err := j.pull.Audited(ctx, owner, repo, m)
		return readback.Audit(au), err
	}
	rj := &readback.Judge{Read: j.gh, Find: j.gh, Label: j.gh, W: j.w, Locks: a.db, Log: j.log, Now: time.Now,
		Audited: a.audits.Wrap(audited, time.Now), Config: verdict.Config, Cache: &a.ancestry, Horizon: 2 * a.opts.ReconcileEvery,
		Signer: a.opts.Signer, Attest: j.gh, Roles: j.gh, React: j.gh, Authority: a.opts.readback.authority, People: j.people, Boards: j.boards.Schedule}
	rj.Evidence = func(ctx context.Context, owner, repo string, unit int, at closure.Attempt) error {
		return a.closures(j, w).Evidence(ctx, closureInput(w), unit, at)
	}
	o := a.opts.readback
	if o.now != nil {
		rj.Now = o.now
	}
	if o.audited != nil {
		rj.Audited = o.audited
	}
	if o.reader != nil {
		rj.Read = o.reader(rj.Read)
	}
	return rj.Run(ctx, readback.Input{Delivery: w.Delivery, Event: w.Event, Owner: w.Owner, Repo: w.Repo}, t)
}
