package app

import (
	"context"
	"time"

	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/protocol/closure"
)

// readbackJudge is the readback judge (package app/readback) of the
// installation w runs for, with ev's writer, lock, board and logger.
func (a *App) readbackJudge(ev *evaluator, w route.Where) (*readback.Judge, error) {
	in, err := a.clients.Installation(w.Installation)
	if err != nil {
		return nil, err
	}
	j := &readback.Judge{Read: in, Find: in, Label: in, W: ev.w, Locks: ev.locks, Log: ev.log, Now: time.Now,
		Audited: a.audits.Wrap(ev.auditOf, time.Now), Config: verdict.Config, Cache: &a.ancestry, Horizon: 2 * a.opts.ReconcileEvery,
		Signer: a.opts.Signer, Attest: in, Roles: in, React: in, Authority: a.opts.readback.authority, People: ev.people}
	if ev.boards != nil {
		j.Boards = ev.boards.schedule
	}
	j.Evidence = func(ctx context.Context, owner, repo string, unit int, at closure.Attempt) error {
		return ev.keepEvidence(ctx, w, unit, at)
	}
	o := a.opts.readback
	if o.now != nil {
		j.Now = o.now
	}
	if o.audited != nil {
		j.Audited = o.audited
	}
	if o.reader != nil {
		j.Read = o.reader(j.Read)
	}
	return j, nil
}
