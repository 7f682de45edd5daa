package action

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/checks"
)

// plansSkillProgress is plansProgress as the Executor skill writes it: no
// version, slug or owner, a commands block.
const plansSkillProgress = `{
  "commands": {"test": "sh src/check.sh"},
  "phases": [
    {"id": 1, "name": "invoices", "title": "invoices", "conflict_zones": ["src/**"],
     "tasks": [{"id": "1.1", "title": "model"}, {"id": "1.2", "title": "check"}]},
    {"id": 2, "name": "web", "title": "web", "depends_on": [1], "conflict_zones": ["web/**"], "tasks": [{"id": "2.1", "title": "page"}]}
  ]
}
`

// TestActionPlansSkillProgress: aep/plans reads the skill's progress.json
// as the skill's dialect (no "version 0 is not supported", no "owner:
// required") and holds it to the skill's rules: with no phase brief
// listing the files, each done task is a task-files finding.
func TestActionPlansSkillProgress(t *testing.T) {
	e := newPlansEnvWith(t, plansSetup{progress: plansSkillProgress})
	if code := e.run(); code != ExitFailed {
		t.Fatalf("exit %d, want 1\n%s", code, e.stdout.String())
	}
	r := e.runs()[checks.NamePlans]
	var got []string
	for _, a := range r.Annotations {
		got = append(got, fmt.Sprintf("%s:%d %s", a.Path, a.StartLine, a.Title))
	}
	want := []string{
		"plans/billing/state/phase-1.json:8 plans: task-files",
		"plans/billing/state/phase-1.json:9 plans: task-files",
	}
	if r.Conclusion != "failure" || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("aep/plans %s, annotations %v; want failure, %v\n%s", r.Conclusion, got, want, r.Summary)
	}
	if !strings.Contains(r.Summary, `task "1.1" is done but phase 1 has no brief`) || strings.Contains(r.Summary, "not supported") {
		t.Errorf("summary:\n%s", r.Summary)
	}
}
