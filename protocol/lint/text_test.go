package lint

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/rundoc"
)

const repeated = "The ledger migration ran against a copy of production data and every balance matched the source system to the cent after replay."

const filledPlan = `# Demo — Plan of Record

## Opportunity

**Target outcome:** balances reconcile nightly.

**Problem:** drift goes unnoticed for weeks.

**Cost of doing nothing:** a manual audit every month.

## Shaping

**Options:** N/A (Deterministic Fix)

**Riskiest assumption:** the source export is complete.

## Non-goals

- multi-currency

## Deferred items ledger

| ID | What | Deferred to | Closed by |
|----|------|-------------|-----------|
| D1 | retry budget | P0 | — |
| D2 | metrics | P0 | P0-T1 |
| D3 | alerts | P1 | — |
`

func TestText(t *testing.T) {
	many := []string{"P1-fix-a.md", "P1-fix-b.md", "phase-1-c.md", "p01-d.md", "P2-a.md", "P2-b.md", "phase_2-c.md", "Phase2-d.md", "notes.md", "P10-x.md"}
	tests := []struct {
		name      string
		run       *rundoc.Run
		threshold int
	}{
		{"clean", newRun(task("P0-T1"), done("P0-T1")), 6},
		{"every-rule", withPlan(newRun(
			"intro\n**Report:** `P0-T7`\n"+task("P0-T1")+"### P0-T2 — Do\n\nno report\n\n"+gate("P0-G1", "**Negative control:** n/a")+task("P1-T1"),
			"### P0-T1 — DONE\n\n**Verify output:** it works\n\n"+entry("P0-G1", "APPROVED")+entry("P0-X9", "PENDING")+
				"### P0-G1 — DONE\n\n"+repeated+"\n\n"+done("P1-T1")+repeated+"\n"),
			"# Demo — Plan of Record\n\n## Opportunity\n\n**Target outcome:** <outcome>\n\n## Deferred items ledger\n\n| ID | What | Deferred to | Closed by |\n|---|---|---|---|\n| D1 | x | P0 | |\n"), 6},
		{"annex-breakdown", newRun(task("P0-T1"), done("P0-T1"), many...), 5},
		{"annex-general-only", newRun(task("P0-T1"), done("P0-T1"), "a", "b", "c"), 2},
		{"empty", newRun("", ""), 6},
		{"plan-ledger", withPlan(newRun(task("P0-T1")+gate("P0-G1", control), done("P0-T1")+done("P0-G1")), filledPlan), 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Check(tt.run, Options{AnnexThreshold: tt.threshold})
			golden.CheckString(t, filepath.Join("testdata", tt.name+".golden"), res.Text())
			b, err := json.MarshalIndent(res.JSON("docs/run"), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden.CheckString(t, filepath.Join("testdata", tt.name+".json.golden"), string(b)+"\n")
			if want := min(len(res.Problems), 1); res.ExitCode() != want {
				t.Errorf("ExitCode() = %d, want %d", res.ExitCode(), want)
			}
		})
	}
}

func withPlan(r *rundoc.Run, plan string) *rundoc.Run {
	r.Plan = rundoc.ParsePlan(rundoc.PlanFile, plan)
	return r
}

func TestDuplicateNeedsLength(t *testing.T) {
	short := strings.Repeat("x", 119)
	log := done("P0-T1") + short + "\n\n" + short + "\n\n### P0-T1 — APPROVED\n" + repeated[:119] + "\n\n" + repeated[:119] + "\n"
	if got := findings(Check(newRun(task("P0-T1"), log), DefaultOptions())); len(got) != 0 {
		t.Errorf("paragraphs under 120 characters flagged: %v", got)
	}
}

func TestPlanRulesNeedStartedWork(t *testing.T) {
	r := withPlan(newRun(task("P0-T1")+gate("P0-G1", control), entry("P0-T1", "PENDING")+entry("P0-G1", "PENDING")), "# Empty plan\n")
	if got := findings(Check(r, DefaultOptions())); len(got) != 0 {
		t.Errorf("fresh run with empty plan flagged: %v", got)
	}
}

// TestEvidenceHintSaysCommandOutput: the line after the L6 list is aepkit
// 0.5.1's hint, word for word ("the literal command output").
func TestEvidenceHintSaysCommandOutput(t *testing.T) {
	const want = "  Paste the literal command output under **Verify output:** inside a ``` code block; a sentence about the result is not output.\n"
	got := Check(newRun(task("P0-T1"), "### P0-T1 — DONE\n\n**Verify output:** it works\n"), DefaultOptions()).Text()
	if !strings.Contains(got, "\n"+want) {
		t.Errorf("L6 report lacks aepkit's hint line %q:\n%s", want, got)
	}
}
