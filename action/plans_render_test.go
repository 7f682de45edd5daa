package action

import (
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/plans"
)

func TestPlansCheckRunGolden(t *testing.T) {
	progress, err := plans.ParseProgress("plans/billing/progress.json", []byte(plansProgress))
	if err != nil {
		t.Fatal(err)
	}
	head := plans.Plan{Dir: "plans/billing", Progress: progress}
	tests := []struct {
		name string
		outs []plansOutcome
	}{
		{"none", nil},
		{"clean", []plansOutcome{{dir: "plans/billing", head: head}}},
		{"findings", []plansOutcome{
			{dir: "plans/billing", head: head, findings: []plans.Finding{
				{Rule: "task-commits", File: "plans/billing/state/phase-1.json", Line: 9, Message: `task "1.2": commit abc changes no file`},
				{Rule: "rerun", File: "plans/billing/state/phase-1.json", Line: 11, Message: "false green: \"sh src/check.sh\" recorded exit code 0, re-run exited 1; output tail:\nbroken"},
			}},
			{dir: "plans/web", err: "list plans/web at abc: git ls-tree: fatal: not a tree object"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := plansCheckRun("0123456789abcdef0123456789abcdef01234567", tc.outs)
			golden.CheckString(t, "testdata/plans/"+tc.name+".md", "# "+string(run.Conclusion)+": "+run.Title+"\n\n"+run.Summary)
		})
	}
}
