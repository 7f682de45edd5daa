package app

import (
	"context"
	"time"

	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/protocol/closure"
)

// runReadback reads back what t names (package app/readback) for the
// installation w runs for, with ev's writer, lock, board and logger.
func (a *App) runReadback(ctx context.Context, ev *evaluator, w route.Where, t readback.Target) error {
	in, err := a.clients.Installation(w.Installation)
	if err != nil {
		return err
	}
	j := &readback.Judge{Read: in, Find: in, Label: in, W: ev.w, Locks: ev.locks, Log: ev.log, Now: time.Now,
		Audited: a.audits.Wrap(ev.auditOf, time.Now), Config: verdict.Config, Cache: &a.ancestry, Horizon: 2 * a.opts.ReconcileEvery,
		Signer: a.opts.Signer, Attest: in, Roles: in, React: in, Authority: a.opts.Seams.Readback.Authority, People: ev.people}
	if ev.boards != nil {
		j.Boards = ev.boards.schedule
	}
	j.Evidence = func(ctx context.Context, owner, repo string, unit int, at closure.Attempt) error {
		return ev.keepEvidence(ctx, w, unit, at)
	}
	o := a.opts.Seams.Readback
	if o.Now != nil {
		j.Now = o.Now
	}
	if o.Audited != nil {
		j.Audited = o.Audited
	}
	if o.Reader != nil {
		j.Read = o.Reader(j.Read)
	}
	return j.Run(ctx, readback.Input{Delivery: w.Delivery, Event: w.Event, Owner: w.Owner, Repo: w.Repo}, t)
}
