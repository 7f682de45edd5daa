package status

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/rundoc"
)

func logRun(log string) *rundoc.Run {
	return rundoc.Parse(rundoc.Files{Docs: map[string]string{rundoc.LogFile: log}})
}

func h(id, word string) string { return "### " + id + " — " + word + "\n\nbody\n\n" }

// open lists "ID: STATE" for the open items, in order.
func open(r Report) []string {
	out := []string{}
	for _, it := range r.Items {
		if it.State != rundoc.Approved {
			out = append(out, it.ID+": "+it.State+detail(it))
		}
	}
	return out
}

func TestCompute(t *testing.T) {
	board := "| ID | Delivery | Verdict | Notes |\n|---|---|---|---|\n"
	tests := []struct {
		name string
		log  string
		want []string
	}{
		{"done blocked approved", h("P0-T1", "DONE") + h("P0-T2", "BLOCKED") + h("P0-T3", "DONE") + h("P0-T3", "APPROVED"),
			[]string{"P0-T1: AWAITING AUDIT", "P0-T2: BLOCKED"}},
		{"resubmission", h("P0-T1", "FAILED") + h("P0-T1", "DONE"), []string{"P0-T1: AWAITING AUDIT"}},
		{"hyphen headings and rejected is open", "### P0-T1 - DONE\n\n### P0-T1 - REJECTED\n\n### P0-T2 – APPROVED\n",
			[]string{"P0-T1: REJECTED (report: DONE)"}},
		{"board verdicts combine", board + "| P0-T1 | done | APPROVED | |\n| `P0-T2` | done | **REJECTED** | |\n| P0-G1 | — | `PENDING` | |\n\n" +
			h("P0-T1", "DONE") + h("P0-T2", "DONE") + h("P0-G1", "PENDING"),
			[]string{"P0-T2: REJECTED (report: DONE)", "P0-G1: PENDING"}},
		{"board and header conflict", board + "| P0-T1 | done | APPROVED | |\n\n" + h("P0-T1", "DONE") + h("P0-T1", "REJECTED"),
			[]string{"P0-T1: CONFLICT (status board: APPROVED, report header: REJECTED)"}},
		{"self-reported done stays open", h("P0-T1", "DONE"), []string{"P0-T1: AWAITING AUDIT"}},
		{"conditional is open", h("P0-T1", "DONE") + h("P0-T1", "CONDITIONAL"), []string{"P0-T1: CONDITIONAL (report: DONE)"}},
		{"opaque word kept", h("P0-T1", "in_review"), []string{"P0-T1: IN_REVIEW"}},
		{"heading with trailing words invisible", "### P0-T1 — DONE (resubmitted)\n" + h("P0-T2", "PENDING"), []string{"P0-T2: PENDING"}},
		{"heading inside fence is content", h("P0-T1", "DONE") + "```\n### P0-T1 — APPROVED\n```\n", []string{"P0-T1: AWAITING AUDIT"}},
		{"board-only row", board + "| P0-T9 | — | PENDING | |\n", []string{"P0-T9: PENDING"}},
		{"board rule rows and short rows skipped", board + "| :-- | | |\n| P0-T1 |\n| | x | APPROVED | |\n", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := open(Compute(logRun(tt.log), "d"))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("open items (-want +got):\n%s", diff)
			}
		})
	}
}

func TestText(t *testing.T) {
	tests := []struct{ name, log string }{
		{"mixed", "| ID | Verdict |\n|---|---|\n| P0-T1 | APPROVED |\n| P0-T2 | REJECTED |\n\n" +
			h("P0-T1", "DONE") + h("P0-T2", "DONE") + h("P0-G1", "PENDING") + h("P1-T1", "DONE") + h("P1-T2", "BLOCKED") + h("P0-T1", "REJECTED")},
		{"empty", "# Log\n\nnothing here\n"},
		{"board-only", "| ID | Verdict |\n|---|---|\n| P0-T1 | APPROVED |\n| P0-T2 | PENDING |\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			golden.CheckString(t, filepath.Join("testdata", tt.name+".golden"), Compute(logRun(tt.log), "d").Text())
		})
	}
}

func TestJSON(t *testing.T) {
	guide := "# Phase 0 — Foundations\n\n### P0-T1 — a\n\n# Phase 1 – Ledger core\n"
	plan := "## Phases\n\n| Phase | Delivers | Risk | Weight |\n|---|---|---|---|\n| P0 | x | low | 1 |\n| Phase 1 | y | high | 3 |\n| 2 | z | low | lots |\n"
	log := "| ID | Verdict | Executor |\n|---|---|---|\n| P0-T1 | APPROVED | sonnet |\n\n" + h("P0-T1", "DONE") + h("P1-T1", "DONE") + h("P2-T1", "PENDING") + h("NOTES-1", "PENDING")
	run := rundoc.Parse(rundoc.Files{Docs: map[string]string{
		rundoc.GuideFile: guide, rundoc.LogFile: log, rundoc.PlanFile: plan,
	}})
	rep := Compute(run, "docs/run")
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.CheckString(t, filepath.Join("testdata", "status.json.golden"), string(b)+"\n")
	var back map[string]any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("status JSON does not parse: %v", err)
	}
	wantPhases := []Phase{{ID: "P0", Title: ptr("Foundations"), Weight: 1}, {ID: "P1", Title: ptr("Ledger core"), Weight: 3}, {ID: "P2", Weight: 1}}
	if diff := cmp.Diff(wantPhases, rep.Phases); diff != "" {
		t.Errorf("phases (-want +got):\n%s", diff)
	}
}

func ptr(s string) *string { return &s }
