package app_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestE2EBudgetMetrics: serve's /metrics shows the API budget: the
// primary limit left as GitHub reported it, the calls waiting by priority,
// the waits, and a secondary-limit refusal GitHub answered.
func TestE2EBudgetMetrics(t *testing.T) {
	w := appkit.NewWorld(t)
	w.AddPRs(1)
	w.F.InjectFault("POST /repos/{owner}/{repo}/check-runs", ghfake.Fault{Kind: ghfake.FaultSecondary, RetryAfter: 1, Times: 1})
	o := appkit.Options(t, w, "")
	o.Seams.Checks = appkit.PipelineChecks()
	_, base := appkit.Start(t, o)
	if got := appkit.Deliver(t, base, "pull_request", "b-1", w.PREvent("opened", 1000, "Work-unit: #1")); got != 202 {
		t.Fatalf("delivery: %d", got)
	}
	appkit.WaitFor(t, 60*time.Second, "the pull request judged", w.AllJudged(1))
	for _, tt := range []struct {
		series string
		want   func(float64) bool
	}{
		{`aepgate_github_budget_remaining{resource="graphql"}`, func(v float64) bool { return v > 0 && v < 5000 }},
		{`aepgate_github_budget_waiting{priority="normal"}`, func(v float64) bool { return v == 0 }},
		{`aepgate_github_budget_waiting{priority="own"}`, func(v float64) bool { return v == 0 }},
		{`aepgate_github_budget_wait_seconds_count`, func(v float64) bool { return v >= 2 }},
		{`aepgate_github_budget_refusals_total{kind="secondary"}`, func(v float64) bool { return v == 1 }},
	} {
		raw := scrape(base, tt.series)
		v, err := strconv.ParseFloat(raw, 64)
		if err != nil || !tt.want(v) {
			t.Errorf("%s = %q", tt.series, raw)
		}
	}
}
