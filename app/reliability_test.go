package app_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

func TestE2EFaultsEventuallyProcessedNoDuplicateWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("reliability test: runs without -short")
	}
	const n = 100
	w := appkit.NewWorld(t)
	w.AddPRs(n)
	w.EnforceLimits(appkit.Limits())
	// One request in five fails, on every route (installation tokens
	// included): half answer 502, half GitHub's secondary rate limit (403
	// with Retry-After). Rules are tried in order, so the second's rate is
	// scaled to hit 10% of all requests too. Seeded: runs repeat.
	w.F.Seed(1)
	w.F.InjectFault("*", ghfake.Fault{Kind: ghfake.FaultStatus, Status: 502, Rate: 0.1})
	w.F.InjectFault("*", ghfake.Fault{Kind: ghfake.FaultSecondary, RetryAfter: 1, Rate: 0.1 / 0.9})
	o := appkit.Options(t, w, "")
	o.Workers = 16
	o.Seams.Checks = appkit.PipelineChecks()
	_, base := appkit.Start(t, o)
	begin := time.Now()
	for i := range n {
		if got := appkit.Deliver(t, base, "pull_request", fmt.Sprintf("f-%d", i), w.PREvent("opened", 1000+i, "Work-unit: #1")); got != 202 {
			t.Fatalf("delivery %d: %d", i, got)
		}
	}
	// Each secondary-limit refusal holds all the installation's calls for
	// its Retry-After (internal/gh's budget): about 30 s in all here, where
	// the same run without the budget takes about 10 s.
	appkit.WaitFor(t, 6*time.Minute, "every pull request judged", w.AllJudged(n))
	reads, writes, faults := w.Counts()
	if faults == 0 {
		t.Fatal("no faults were injected")
	}
	kinds := map[string]int{}
	for _, r := range w.F.Requests() {
		if r.Fault != "" {
			kinds[r.Fault]++
		}
	}
	if kinds[string(ghfake.FaultStatus)] == 0 || kinds[string(ghfake.FaultSecondary)] == 0 {
		t.Errorf("faults by kind %v: want both 5xx and secondary rate limits", kinds)
	}
	if d := w.Duplicates(); len(d) > 0 {
		t.Errorf("duplicated writes: %v", d)
	}
	t.Logf("%v: %d deliveries processed through %d injected faults %v (%d reads, %d writes)", time.Since(begin).Round(time.Millisecond), n, faults, kinds, reads, writes)
}
