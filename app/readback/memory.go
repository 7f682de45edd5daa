package readback

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
)

// Memory is what readback remembers between jobs, one for the App: which
// commit contains which, and the audits judged for merged heads.
type Memory struct {
	Ancestry Ancestry
	Audits   AuditMemory
}

// AuditMemory remembers, for a short while, the audit judged for a merged
// pull request's final head, so that the workflow runs finishing on the
// merge one after another do not each read the pull request's reviews again
// (a readback evaluation is then its own 1–2 reads). Kept briefly, so a
// review dismissed after the merge is seen by the next readback after that.
// The zero value is empty and ready; it is safe for concurrent use.
type AuditMemory struct {
	mu   sync.Mutex
	seen map[string]rememberedAudit
}

type rememberedAudit struct {
	rec Audit
	at  time.Time
}

// auditMemoryTTL is how long a judged audit is reused; maxAuditMemory bounds
// the entries (when full, the memory starts again empty).
const (
	auditMemoryTTL = 10 * time.Minute
	maxAuditMemory = 1024
)

// Wrap returns audited with its answers remembered per merged head.
func (m *AuditMemory) Wrap(audited AuditFunc, now func() time.Time) AuditFunc {
	return func(ctx context.Context, owner, repo string, mp *gh.MergedPull) (Audit, error) {
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
