package app

import (
	"context"
	"fmt"
	"sync"
	"time"

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
func (e *evaluator) auditOf(ctx context.Context, owner, repo string, m *gh.MergedPull) (auditRecord, error) {
	none := auditRecord{SHA: m.HeadSHA}
	snap, err := e.snap.Snapshot(ctx, gh.SnapshotRequest{Owner: owner, Repo: repo, PR: m.Number, Needs: e.needs()})
	if err != nil || snap.Pull == nil {
		return none, err
	}
	ev, err := e.prepare(ctx, evalInput{owner: owner, repo: repo, pr: m.Number}, snap, unitOf(snap))
	if err != nil || ev.cfg == nil {
		return none, err
	}
	d := ev.auditDecision()
	switch {
	case d.Outcome == review.OutcomePassed && d.Review != nil:
		return auditRecord{SHA: d.AuditedSHA, Auditor: d.Review.Author.Login, ReviewID: d.Review.ID, Verdict: review.VerdictPass}, nil
	case d.Outcome == review.OutcomeStale && d.AuditedSHA != "":
		return auditRecord{SHA: d.AuditedSHA}, nil
	}
	return none, nil
}

// auditMemory remembers, for a short while, the audit judged for a merged
// pull request's final head, so that the workflow runs finishing on the
// merge one after another do not each read the pull request's reviews again
// (a readback evaluation is then its own 1–2 reads). Kept briefly, so a
// review dismissed after the merge is seen by the next readback after that.
type auditMemory struct {
	mu   sync.Mutex
	seen map[string]rememberedAudit
}

type rememberedAudit struct {
	rec auditRecord
	at  time.Time
}

// auditMemoryTTL is how long a judged audit is reused; maxAuditMemory bounds
// the entries (when full, the memory starts again empty).
const (
	auditMemoryTTL = 10 * time.Minute
	maxAuditMemory = 1024
)

// wrap returns audited with its answers remembered per merged head.
func (m *auditMemory) wrap(audited func(ctx context.Context, owner, repo string, mp *gh.MergedPull) (auditRecord, error), now func() time.Time) func(ctx context.Context, owner, repo string, mp *gh.MergedPull) (auditRecord, error) {
	return func(ctx context.Context, owner, repo string, mp *gh.MergedPull) (auditRecord, error) {
		key := fmt.Sprintf("%s/%s#%d@%s", owner, repo, mp.Number, mp.HeadSHA)
		m.mu.Lock()
		r, ok := m.seen[key]
		m.mu.Unlock()
		if ok && now().Sub(r.at) < auditMemoryTTL {
			return r.rec, nil
		}
		rec, err := audited(ctx, owner, repo, mp)
		if err != nil {
			return rec, err
		}
		m.mu.Lock()
		if m.seen == nil || len(m.seen) >= maxAuditMemory {
			m.seen = map[string]rememberedAudit{}
		}
		m.seen[key] = rememberedAudit{rec: rec, at: now()}
		m.mu.Unlock()
		return rec, nil
	}
}
