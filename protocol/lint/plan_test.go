package lint

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPlanUnfilledOnlyInTemplateShape: L10 flags a field only where the plan
// uses the template's structure for it (its bold label, or the template
// section that holds it) and leaves it empty or a placeholder. A plan of
// another shape, such as aepkit 0.5's numbered sections, lints as aepkit
// 0.5.1 did: clean when the rest is clean.
func TestPlanUnfilledOnlyInTemplateShape(t *testing.T) {
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	tests := []struct {
		name string
		plan string
		want []string
	}{
		{"aepkit 0.5-era plan lints as aepkit 0.5.1 did", read("testdata/plans/aepkit-0.5.md"), []string{}},
		{"template plan with empty and placeholder fields", read("testdata/plans/template-unfilled.md"),
			[]string{"L10 Problem", "L10 Cost of doing nothing", "L10 Options", "L10 Riskiest assumption", "L10 Non-goals"}},
		{"template plan filled", read("../../examples/ledger-service/plan-of-record.md"), []string{}},
		{"fields the plan never had are not unfilled",
			"# P\n\n## Opportunity\n\n**Target outcome:** x\n\n**Problem:** y\n\n**Cost of doing nothing:** z\n", []string{}},
		{"a template section without its labels leaves them unfilled", "# P\n\n## Opportunity\n\nTBD\n\n## 2. Decisions\n\nnone\n",
			[]string{"L10 Target outcome", "L10 Problem", "L10 Cost of doing nothing"}},
		{"a label outside its section still counts", "# P\n\n**Riskiest assumption:** <assumption>\n", []string{"L10 Riskiest assumption"}},
		{"options field fills an empty shaping table", "# P\n\n## Shaping\n\n**Options:** N/A (Deterministic Fix)\n\n**Riskiest assumption:** none\n", []string{}},
		{"empty non-goals section", "# P\n\n## Non-goals\n\n<none>\n", []string{"L10 Non-goals"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := withPlan(newRun(task("P0-T1")+gate("P0-G1", control), done("P0-T1")+entry("P0-T1", "APPROVED")+done("P0-G1")), tt.plan)
			if diff := cmp.Diff(tt.want, findings(Check(r, DefaultOptions()))); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}
