package archtest

import (
	"testing"
)

// featureArrows are the arrows between the App's features that the design
// forbids: the pull-request pipeline (app/pull) never reaches the owners'
// gates (app/gates), which judge through its Judge as a port, so the one
// arrow between them runs gates → pull and answering a comment cannot loop
// back through an import.
var featureArrows = map[string][]string{"app/pull": {"app/gates"}}

func TestGatesJudgeThroughThePullPort(t *testing.T) {
	for _, p := range listPackages(t) {
		for _, v := range layerViolations(p, featureArrows) {
			t.Error(v)
		}
	}
}

// TestGatesPortRuleCanFail: a planted app/pull that reaches app/gates is
// caught; with the arrow's rule removed (the negative control) it is not,
// and app/gates reaching app/pull is the allowed arrow.
func TestGatesPortRuleCanFail(t *testing.T) {
	planted := pkgInfo{ImportPath: module + "/app/pull", Deps: []string{module + "/app/gates", module + "/app/verdict"}}
	if got := layerViolations(planted, featureArrows); len(got) != 1 {
		t.Errorf("planted app/pull → app/gates: %d violations, want 1: %q", len(got), got)
	}
	if got := layerViolations(planted, map[string][]string{}); len(got) != 0 {
		t.Errorf("with the rule removed: %d violations, want 0: %q", len(got), got)
	}
	gates := pkgInfo{ImportPath: module + "/app/gates", Deps: []string{module + "/app/pull"}}
	if got := layerViolations(gates, featureArrows); len(got) != 0 {
		t.Errorf("app/gates → app/pull is the port's arrow: %q", got)
	}
}
