package lint

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

// fence is a Markdown code fence, spelled out so fixtures stay readable.
const fence = "```"

const control = "**Negative control:** remove the guard and watch test_guard fail.\n"

func task(id string) string {
	return fmt.Sprintf("### %s — Do the thing\n\n**Goal:** it works.\n\n**Report:** `%s`\n\n---\n\n", id, id)
}

func gate(id, body string) string {
	return fmt.Sprintf("### %s — Gate: the thing holds\n\n**Proven by:** the tests.\n\n%s\n**Report:** `%s`\n\n---\n\n", id, body, id)
}

func done(id string) string {
	return fmt.Sprintf("### %s — DONE\n\n**Changed:** x.go\n\n**Verify output:**\n%s\n$ go test ./...\nok  example 0.1s\n%s\n\n**Observations:** none\n\n", id, fence, fence)
}

var scaffoldGate = strings.Replace(gate("P0-G1", "**Negative control:** <what you break>"), "Gate: the thing holds", "Gate: <claim>", 1)

func entry(id, word string) string {
	return fmt.Sprintf("### %s — %s\n\n**Observations:** none\n\n", id, word)
}

func newRun(guide, log string, annexes ...string) *rundoc.Run {
	return rundoc.Parse(rundoc.Files{Docs: map[string]string{
		rundoc.GuideFile: guide, rundoc.LogFile: log,
	}, Annexes: annexes})
}

// findings summarizes a result as "rule id" strings.
func findings(r Result) []string {
	out := []string{}
	for _, p := range r.Problems {
		out = append(out, strings.TrimSpace(p.Rule+" "+p.ID))
	}
	return out
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name       string
		guide, log string
		annexes    []string
		threshold  int
		want       []string
	}{
		{name: "minimal clean", guide: task("P0-T1"), log: done("P0-T1"), want: []string{}},
		{name: "missing report", guide: task("P0-T1") + task("P0-T2"), log: done("P0-T1"), want: []string{"L1 P0-T2"}},
		{name: "missing report per occurrence", guide: task("P0-T1") + "**Report:** `P0-T1`\n", log: "", want: []string{"L1 P0-T1", "L1 P0-T1"}},
		{name: "gate proven only by suite", guide: gate("P0-G1", "**Proven by:** the suite passing."), log: entry("P0-G1", "PENDING"), want: []string{"L5 P0-G1"}},
		{name: "gate with real control", guide: gate("P0-G1", "a negative control — remove the check, observe it fail, restore, observe it pass"), log: entry("P0-G1", "PENDING"), want: []string{}},
		{name: "hyphen and en dash headings", guide: "### P0-T1 - Do\n**Report:** `P0-T1`\n### P0-T2 – Do\n**Report:** `P0-T2`\n",
			log: strings.Replace(done("P0-T1"), "—", "-", 1) + strings.Replace(done("P0-T2"), "—", "–", 1), want: []string{}},
		{name: "orphan report", guide: task("P0-T1"), log: done("P0-T1") + entry("P0-T9", "PENDING"), want: []string{"L4 P0-T9"}},
		{name: "orphans sorted and distinct", guide: task("P0-T1"), log: done("P0-T1") + entry("P0-T9", "PENDING") + entry("P0-T8", "DONE") + entry("P0-T9", "BLOCKED"),
			want: []string{"L4 P0-T8", "L4 P0-T9", "L6 P0-T8"}},
		{name: "empty guide and log", guide: "", log: "", want: []string{"L2"}},
		{name: "task without report line, notes ignored", guide: "### Notes — context\n\nSome notes.\n\n### P0-T1 — Do it\n\nNo report here.\n", log: "",
			want: []string{"L3 P0-T1"}},
		{name: "report label without ID is no report line", guide: "### P0-T1 — Do it\n\n**Report:** the task ID\n", log: entry("P0-T1", "PENDING"),
			want: []string{"L3 P0-T1"}},
		{name: "report ID keeps no trailing dot", guide: "### P0-T1 — Do it\n\n**Report:** P0-T1.\n", log: entry("P0-T1", "PENDING"), want: []string{}},
		{name: "pending and blocked need no evidence", guide: task("P0-T1") + task("P0-T2"),
			log: "### P0-T1 — PENDING\n\n**Verify output:**\n\n### P0-T2 — BLOCKED\n\n**Verify output:**\n", want: []string{}},
		{name: "scaffolded gate clean while pending", guide: scaffoldGate,
			log: entry("P0-G1", "PENDING"), want: []string{}},
		{name: "scaffolded gate flagged once DONE", guide: scaffoldGate,
			log: done("P0-G1"), want: []string{"L5 P0-G1"}},
		{name: "word gate in title makes a gate", guide: "### P0-T1 — Release gate for ledger\n\n**Report:** `P0-T1`\n", log: entry("P0-T1", "PENDING"), want: []string{"L5 P0-T1"}},
		{name: "investigate is not a gate", guide: "### P0-T1 — Investigate logs\n\n**Report:** `P0-T1`\n", log: entry("P0-T1", "PENDING"), want: []string{}},
		{name: "digit-less section is never a gate", guide: task("P0-T1") + "### Notes — gate criteria\n\nprose\n", log: done("P0-T1"), want: []string{}},
		{name: "phase order", guide: task("P0-T1") + task("P1-T1"), log: entry("P0-T1", "PENDING") + done("P1-T1"), want: []string{"L7 P1-T1"}},
		{name: "phase order after approval", guide: task("P0-T1") + task("P1-T1"), log: done("P0-T1") + entry("P0-T1", "APPROVED") + done("P1-T1"), want: []string{}},
		{name: "board conflict blocks next phase", guide: task("P0-T1") + task("P1-T1"),
			log:  "| ID | Verdict |\n|---|---|\n| P0-T1 | APPROVED |\n\n" + done("P0-T1") + entry("P0-T1", "REJECTED") + done("P1-T1"),
			want: []string{"L7 P1-T1"}},
		{name: "later-phase pending is not flagged", guide: task("P0-T1") + task("P1-T1"), log: entry("P0-T1", "PENDING") + entry("P1-T1", "BLOCKED"), want: []string{}},
		{name: "annexes over threshold", guide: task("P0-T1"), log: done("P0-T1"), threshold: 6,
			annexes: []string{"a.md", "b.md", "c.md", "d.md", "e.md", "f.md", "g.md", ".gitkeep"}, want: []string{"L9"}},
		{name: "annexes within raised threshold", guide: task("P0-T1"), log: done("P0-T1"), threshold: 10,
			annexes: []string{"a.md", "b.md", "c.md", "d.md", "e.md", "f.md", "g.md"}, want: []string{}},
		{name: "gitkeep never counts", guide: task("P0-T1"), log: done("P0-T1"), threshold: 0, annexes: []string{".gitkeep"}, want: []string{}},
		{name: "other dot files count", guide: task("P0-T1"), log: done("P0-T1"), threshold: 0, annexes: []string{".DS_Store"}, want: []string{"L9"}},
		{name: "fenced heading, rule and field do not cut a report", guide: task("P0-T1"),
			log:  "### P0-T1 — DONE\n\n**Verify output:**\n" + fence + "\n# heading in output\n---\n**Note:** printed\n### P0-T9 — DONE\n" + fence + "\n",
			want: []string{}},
		{name: "four-backtick fence holds a three-backtick one", guide: task("P0-T1"),
			log: "### P0-T1 — DONE\n\n**Verify output:**\n````\n```\nok 1 passed\n```\n````\n", want: []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := DefaultOptions()
			if tt.threshold != 0 || tt.annexes != nil {
				opts.AnnexThreshold = tt.threshold
			}
			got := findings(Check(newRun(tt.guide, tt.log, tt.annexes...), opts))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestManyMentionsStayLinear guards against quadratic work: a gate body of
// one huge paragraph with thousands of mentions must be judged quickly
// (the test would take minutes if each mention scanned to the end).
func TestManyMentionsStayLinear(t *testing.T) {
	body := strings.Repeat("negative control then words ", 40000)
	if StatesNegativeControl(body) {
		t.Error("a body without action or failure words was accepted")
	}
}
