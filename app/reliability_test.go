package app

import (
	"fmt"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

func TestE2EFaultsEventuallyProcessedNoDuplicateWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("reliability test: runs without -short")
	}
	const n = 100
	w := newWorld(t)
	w.addPRs(n)
	// One request in five fails, on every route (installation tokens
	// included): half answer 502, half GitHub's secondary rate limit (403
	// with Retry-After). Rules are tried in order, so the second's rate is
	// scaled to hit 10% of all requests too. Seeded: runs repeat.
	w.f.Seed(1)
	w.f.InjectFault("*", ghfake.Fault{Kind: ghfake.FaultStatus, Status: 502, Rate: 0.1})
	w.f.InjectFault("*", ghfake.Fault{Kind: ghfake.FaultSecondary, RetryAfter: 1, Rate: 0.1 / 0.9})
	o := testOptions(t, w, "")
	o.Workers = 16
	o.checks = pipelineChecks()
	_, base := startApp(t, o)
	begin := time.Now()
	for i := range n {
		if got := deliver(t, base, "pull_request", fmt.Sprintf("f-%d", i), w.prEvent("opened", 1000+i, "Work-unit: #1")); got != 202 {
			t.Fatalf("delivery %d: %d", i, got)
		}
	}
	waitFor(t, 60*time.Second, "every pull request judged", w.allJudged(n))
	reads, writes, faults := w.counts()
	if faults == 0 {
		t.Fatal("no faults were injected")
	}
	kinds := map[string]int{}
	for _, r := range w.f.Requests() {
		if r.Fault != "" {
			kinds[r.Fault]++
		}
	}
	if kinds[string(ghfake.FaultStatus)] == 0 || kinds[string(ghfake.FaultSecondary)] == 0 {
		t.Errorf("faults by kind %v: want both 5xx and secondary rate limits", kinds)
	}
	if d := w.duplicates(); len(d) > 0 {
		t.Errorf("duplicated writes: %v", d)
	}
	t.Logf("%v: %d deliveries processed through %d injected faults %v (%d reads, %d writes)", time.Since(begin).Round(time.Millisecond), n, faults, kinds, reads, writes)
}
