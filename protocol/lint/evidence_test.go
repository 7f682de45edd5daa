package lint

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDoneEvidence(t *testing.T) {
	tests := []struct {
		name   string
		report string
		want   bool // flagged
	}{
		{"fenced output", "**Verify output:**\n" + fence + "\n$ go test\nok\n" + fence + "\n", false},
		{"no field content", "**Verify output:**\n\n**Observations:** none\n", true},
		{"placeholder and empty fence", "**Verify output:** <paste output>\n" + fence + "\n" + fence + "\n", true},
		{"no verify field", "**Changed:** a.go\n", true},
		{"prose only", "**Verify output:** all tests pass\n", true},
		{"inline n/a", "**Verify output:** `n/a`\n", true},
		{"inline TBD", "**Verify output:** `TBD`\n", true},
		{"fenced n/a", "**Verify output:**\n" + fence + "\nn/a\n" + fence + "\n", true},
		{"fenced dash", "**Verify output:**\n" + fence + "\n-\n" + fence + "\n", true},
		{"fenced ellipsis", "**Verify output:**\n" + fence + "\n…\n" + fence + "\n", true},
		{"fenced none yet", "**Verify output:**\n" + fence + "\nNone yet\n" + fence + "\n", true},
		{"fenced placeholder only", "**Verify output:**\n" + fence + "\n<output>\n" + fence + "\n", true},
		{"n/a among real output", "**Verify output:**\n" + fence + "text\n$ pytest -q\nn/a skipped\n3 passed\n" + fence + "\n", false},
		{"tilde fence with info", "**Verify output:**\n~~~console\n$ make check\nPASS\n~~~\n", false},
		{"unicode info string", "**Verify output:**\n" + fence + "日本語\n出力 ok\n" + fence + "\n", false},
		{"fence after next field does not count", "**Verify output:** see below\n\n**Observations:**\n" + fence + "\nok\n" + fence + "\n", true},
		{"fence inside body after rule does not count", "**Verify output:**\n\n---\n\n" + fence + "\nok\n" + fence + "\n", true},
		{"crlf", "**Verify output:**\r\n" + fence + "\r\nok 3 passed\r\n" + fence + "\r\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := "### P0-T1 — DONE\n\n" + tt.report
			got := findings(Check(newRun(task("P0-T1"), log), DefaultOptions()))
			want := []string{}
			if tt.want {
				want = []string{"L6 P0-T1"}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDoneEvidenceEveryHeading(t *testing.T) {
	log := "### P0-T1 — DONE\n\n**Verify output:** all good\n\n" +
		"### P0-T2 — DONE\n\n**Verify output:** <output>\n" + fence + "\n" + fence + "\n\n" +
		"### P0-T3 — DONE\n\n**Changed:** x\n\n" +
		"### P0-T1 — DONE\n\n**Verify output:**\n"
	got := findings(Check(newRun(task("P0-T1")+task("P0-T2")+task("P0-T3"), log), DefaultOptions()))
	want := []string{"L6 P0-T1", "L6 P0-T2", "L6 P0-T3", "L6 P0-T1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
