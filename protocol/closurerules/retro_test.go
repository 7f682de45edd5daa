package closurerules

import (
	"strings"
	"testing"
)

// TestRetroAuditOwed: a certified-looking unit whose merged attempt was
// overridden and not settled is not done, even closed by the owner; once
// settled, its evidence counts again. The negative control drops the
// rule: the unit then counts as done.
func TestRetroAuditOwed(t *testing.T) {
	owner := Actor{Login: "olivia", Type: "User", Permission: "admin"}
	attempt := Attempt{PR: 7, MergeSHA: strings.Repeat("b", 40), MergePassed: true, ReadbackPassed: true,
		Overridden: []string{"aepgate/merge (overridden by olivia: production is down now)"}}
	f := Facts{Number: 3, StateReason: ReasonCompleted, ClosedBy: owner, Owners: []string{"olivia"}, Risk: "low", Attempts: []Attempt{attempt}}
	rules := DefaultRules()
	v := Judge(f, rules)
	if v.State != RetroOwed || !strings.Contains(v.Missing, "retro-audit") || v.Command != "/aep waive <reason>" {
		t.Fatalf("owed: got %+v", v)
	}
	if !strings.Contains(v.Blocking(), "owes a retro-audit") {
		t.Errorf("Blocking = %q", v.Blocking())
	}
	settled := f
	settled.Attempts = []Attempt{attempt}
	settled.Attempts[0].RetroAudit = "waived by the owner olivia (comment 9): reverted"
	if v := Judge(settled, rules); v.State != Done {
		t.Errorf("settled: got %+v, want done", v)
	}
	rules.RetroAudit = false
	if v := Judge(f, rules); v.State != Done {
		t.Errorf("negative control: without the rule the overridden unit is %s, want done (else the rule is not what stops it)", v.State)
	}
}
