package metrics

import (
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/google/go-cmp/cmp"
)

type budgetStates []gh.BudgetState

func (s budgetStates) BudgetStates() []gh.BudgetState { return s }

// TestBudgetSeries: the budget's series show the least remaining limit of
// any installation, the calls waiting summed by priority, the waits and
// the refusals.
func TestBudgetSeries(t *testing.T) {
	m := New()
	m.WatchBudget(budgetStates{
		{Installation: 1, Remaining: map[string]int{"core": 4000, "graphql": 4900}, Waiting: map[gh.Priority]int{gh.PriorityFanout: 3}},
		{Installation: 2, Remaining: map[string]int{"core": 120}, Waiting: map[gh.Priority]int{gh.PriorityFanout: 2, gh.PriorityOwn: 1}},
	})
	m.BudgetWaited(gh.PriorityOwn, 2*time.Second)
	m.BudgetRefused("secondary")
	got := map[string]float64{}
	families, err := m.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if !strings.HasPrefix(f.GetName(), "aepgate_github_budget_") {
			continue
		}
		for _, mt := range f.GetMetric() {
			key := f.GetName()
			for _, l := range mt.GetLabel() {
				key += " " + l.GetName() + "=" + l.GetValue()
			}
			switch {
			case mt.GetGauge() != nil:
				got[key] = mt.GetGauge().GetValue()
			case mt.GetCounter() != nil:
				got[key] = mt.GetCounter().GetValue()
			case mt.GetHistogram() != nil:
				got[key+" count"] = float64(mt.GetHistogram().GetSampleCount())
				got[key+" sum"] = mt.GetHistogram().GetSampleSum()
			}
		}
	}
	want := map[string]float64{
		"aepgate_github_budget_remaining resource=core":       120,
		"aepgate_github_budget_remaining resource=graphql":    4900,
		"aepgate_github_budget_waiting priority=background":   0,
		"aepgate_github_budget_waiting priority=fanout":       5,
		"aepgate_github_budget_waiting priority=normal":       0,
		"aepgate_github_budget_waiting priority=own":          1,
		"aepgate_github_budget_refusals_total kind=secondary": 1,
		"aepgate_github_budget_wait_seconds count":            1,
		"aepgate_github_budget_wait_seconds sum":              2,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("budget series (-want +got):\n%s", diff)
	}
}
