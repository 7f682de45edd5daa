package readback

import (
	"context"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
)

func TestAuditMemoryReusesBriefly(t *testing.T) {
	calls := 0
	judge := func(_ context.Context, _, _ string, m *gh.MergedPull) (Audit, error) {
		calls++
		return Audit{SHA: m.HeadSHA, Verdict: "PASS"}, nil
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var mem AuditMemory
	audited := mem.Wrap(judge, func() time.Time { return now })
	pr := &gh.MergedPull{Number: 3, HeadSHA: "aaa"}
	for range 3 {
		if r, err := audited(context.Background(), "acme", "w", pr); err != nil || r.Verdict != "PASS" {
			t.Fatalf("audited = %+v, %v", r, err)
		}
	}
	if calls != 1 {
		t.Errorf("%d judgements for one merged head within the TTL, want 1", calls)
	}
	audited(context.Background(), "acme", "w", &gh.MergedPull{Number: 3, HeadSHA: "bbb"})
	now = now.Add(auditMemoryTTL)
	audited(context.Background(), "acme", "w", pr)
	if calls != 3 {
		t.Errorf("%d judgements, want 3 (another head, then the TTL passed)", calls)
	}
}
