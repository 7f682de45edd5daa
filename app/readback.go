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
	j := &readback.Judge{GitHub: readback.GitHub{Read: in, Find: in, Label: in, Attest: in, Roles: in, React: in},
		W: ev.w, Locks: ev.locks, Log: ev.log, Now: time.Now, Cache: &a.ancestry, Horizon: 2 * a.opts.ReconcileEvery,
		Rules: readback.Rules{Audited: a.audits.Wrap(ev.auditOf, time.Now), Config: verdict.Config, Authority: a.opts.readback.authority, People: ev.people},
		After: readback.After{Signer: a.opts.Signer}}
	if ev.boards != nil {
		j.After.Boards = ev.boards.schedule
	}
	j.After.Evidence = func(ctx context.Context, owner, repo string, unit int, at closure.Attempt) error {
		return ev.keepEvidence(ctx, w, unit, at)
	}
	o := a.opts.readback
	if o.now != nil {
		j.Now = o.now
	}
	if o.audited != nil {
		j.Rules.Audited = o.audited
	}
	if o.reader != nil {
		j.GitHub.Read = o.reader(j.GitHub.Read)
	}
	return j, nil
}
