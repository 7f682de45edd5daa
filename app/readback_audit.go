package app

import (
	"context"

	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/review"
)

// auditOf is where the audit decision enters readback: the merged pull
// request's reviews judged as aepgate/audit judges them (same snapshot,
// bundles, owner answers). A PASS names the audited head, its auditor,
// review and verdict, which readback proves merged unchanged and the
// certificate names. A stale audit names the older head it was for, so
// readback refuses a head pushed after the audit. Without a counting audit
// (none needed, or none given) it is the final head with no verdict: the
// merge is read back, and no certificate is issued (protocol/certificate
// requires a PASS).
func (e *evaluator) auditOf(ctx context.Context, owner, repo string, m *gh.MergedPull) (readback.Audit, error) {
	none := readback.Audit{SHA: m.HeadSHA}
	needs, reads := e.needs()
	snap, err := e.snap.Snapshot(ctx, gh.SnapshotRequest{Owner: owner, Repo: repo, PR: m.Number, Needs: needs})
	if err != nil || snap.Pull == nil {
		return none, err
	}
	ev, err := e.prepare(ctx, evalInput{owner: owner, repo: repo, pr: m.Number}, snap, verdict.UnitOf(snap), reads)
	if err != nil || ev.Cfg == nil {
		return none, err
	}
	d := ev.AuditDecision()
	switch {
	case d.Outcome == review.OutcomePassed && d.Review != nil:
		return readback.Audit{SHA: d.AuditedSHA, Auditor: d.Review.Author.Login, ReviewID: d.Review.ID, Verdict: review.VerdictPass}, nil
	case d.Outcome == review.OutcomeStale && d.AuditedSHA != "":
		return readback.Audit{SHA: d.AuditedSHA}, nil
	}
	return none, nil
}
