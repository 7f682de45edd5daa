package metrics

import (
	"time"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/prometheus/client_golang/prometheus"
)

// budgetSeries are the GitHub API budget's series (docs/app.md, "The
// GitHub API budget"): registered by WatchBudget, fed by the Set as the
// budgets' gh.BudgetObserver.
type budgetSeries struct {
	wait     prometheus.Histogram
	refusals *prometheus.CounterVec
}

func newBudgetSeries() budgetSeries {
	return budgetSeries{
		wait: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "aepgate_github_budget_wait_seconds", Help: "Time GitHub calls waited for their installation's budget before being sent.",
			Buckets: prometheus.ExponentialBuckets(0.001, 4, 11),
		}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "aepgate_github_budget_refusals_total", Help: "GitHub calls GitHub refused for a rate limit, by kind (primary, secondary).",
		}, []string{"kind"}),
	}
}

// BudgetSource is what WatchBudget reads at each scrape (gh.Clients).
type BudgetSource interface {
	BudgetStates() []gh.BudgetState
}

// WatchBudget registers the budget's series: the primary limit left and
// the calls waiting, read from src at each scrape, and the waits and
// refusals the Set observes (set it as gh.BudgetOptions.Observer).
func (m *Set) WatchBudget(src BudgetSource) {
	m.reg.MustRegister(m.budget.wait, m.budget.refusals, &budgetCollector{src: src})
}

// WatchGitHub makes the Set the observer of c's calls (GitHubCall) and
// budgets, and registers the budget's series; call it before c's first
// use.
func (m *Set) WatchGitHub(c *gh.Clients) {
	c.Observe = m.GitHubCall
	c.Budget.Observer = m
	m.WatchBudget(c)
}

// BudgetWaited observes one call's wait (gh.BudgetObserver).
func (m *Set) BudgetWaited(_ gh.Priority, d time.Duration) { m.budget.wait.Observe(d.Seconds()) }

// BudgetRefused counts one rate-limit refusal (gh.BudgetObserver).
func (m *Set) BudgetRefused(kind string) { m.budget.refusals.WithLabelValues(kind).Inc() }

var _ gh.BudgetObserver = (*Set)(nil)

// budgetCollector reads the budgets' gauges at scrape time.
type budgetCollector struct{ src BudgetSource }

var (
	budgetRemaining = prometheus.NewDesc("aepgate_github_budget_remaining",
		"The least primary rate limit left of any installation, by resource (core, graphql), as GitHub last reported it less the calls sent since; absent until GitHub's first answer gives it.",
		[]string{"resource"}, nil)
	budgetWaiting = prometheus.NewDesc("aepgate_github_budget_waiting",
		"GitHub calls waiting for their installation's budget, by priority (own, normal, fanout, background).",
		[]string{"priority"}, nil)
)

// Describe sends the gauges' descriptions.
func (c *budgetCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- budgetRemaining
	ch <- budgetWaiting
}

// Collect sends the least remaining limit by resource and the calls
// waiting by priority, summed over installations.
func (c *budgetCollector) Collect(ch chan<- prometheus.Metric) {
	least := map[string]int{}
	waiting := map[gh.Priority]int{}
	for _, s := range c.src.BudgetStates() {
		for r, n := range s.Remaining {
			if old, ok := least[r]; !ok || n < old {
				least[r] = n
			}
		}
		for p, n := range s.Waiting {
			waiting[p] += n
		}
	}
	for r, n := range least {
		ch <- prometheus.MustNewConstMetric(budgetRemaining, prometheus.GaugeValue, float64(n), r)
	}
	for _, p := range gh.Priorities() {
		ch <- prometheus.MustNewConstMetric(budgetWaiting, prometheus.GaugeValue, float64(waiting[p]), p.String())
	}
}
