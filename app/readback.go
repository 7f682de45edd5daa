package app

import (
	"context"
	"time"

	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/closurerules"
)

// readbackJudge is the readback judge (package app/readback) of the
// installation w runs for, with j's writer, board and logger, and the
// audits the pull judge decides (pull.Judge.Audited).
func (a *App) readbackJudge(j *judges, w route.Where) *readback.Judge {
	audited := func(ctx context.Context, owner, repo string, m *gh.MergedPull) (readback.Audit, error) {
		au, err := j.pull.Audited(ctx, owner, repo, m)
		return readback.Audit(au), err
	}
	rj := &readback.Judge{GitHub: readback.GitHub{Read: j.gh, Find: j.gh, Label: j.gh, Attest: j.gh, Roles: j.gh, React: j.gh},
		W: j.w, Locks: a.db, Log: j.log, Now: time.Now, Cache: &a.ancestry, Horizon: 2 * a.opts.ReconcileEvery,
		Rules: readback.Rules{Audited: a.audits.Wrap(audited, time.Now), Config: verdict.Config, Authority: a.opts.Seams.Readback.Authority, People: j.people},
		After: readback.After{Signer: a.opts.Signer, Boards: j.boards.Schedule,
			Evidence: func(ctx context.Context, owner, repo string, unit int, at closurerules.Attempt) error {
				return a.closures(j, w).Evidence(ctx, closureInput(w), unit, at)
			}}}
	o := a.opts.Seams.Readback
	if o.Now != nil {
		rj.Now = o.Now
	}
	if o.Audited != nil {
		rj.Rules.Audited = o.Audited
	}
	if o.Reader != nil {
		rj.GitHub.Read = o.Reader(rj.GitHub.Read)
	}
	return rj
}
