package rundoc

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestParseGuide(t *testing.T) {
	src := "# Demo — Execution Guide\r\n\r\n" +
		"## Reporting format\r\n\r\n````markdown\r\n### P9-T9 — DONE\r\n**Report:** `P9-T9`\r\n```\r\nout\r\n```\r\n````\r\n\r\n" +
		"# Phase 0 — Foundations\r\n\r\n" +
		"### P0-T1 — Build the thing\r\n\r\n**Report:** `P0-T1`\r\n\r\n" +
		"### Notes – context\r\n\r\n**Report:** the task\r\n\r\n" +
		"### P0-G1\u00a0-\u2003Gate: it holds\r\n\r\n**Report:** P0-G1.\r\n" +
		"### P0-T2 —\r\nnext line is not the title\r\n"
	g := ParseGuide(GuideFile, "\ufeff"+src)
	type sec struct {
		ID, Title string
		Line      int
		Reports   []ReportRef
		Gate      bool
	}
	var got []sec
	for _, s := range g.Sections {
		got = append(got, sec{s.ID, s.Title, s.Line, g.Reports[s.Reports.From:s.Reports.To:s.Reports.To], s.IsGate()})
	}
	want := []sec{
		{"P0-T1", "Build the thing", 15, []ReportRef{{"P0-T1", 17}}, false},
		{"Notes", "context", 19, nil, false},
		{"P0-G1", "Gate: it holds", 23, []ReportRef{{"P0-G1", 25}}, true},
		{"P0-T2", "", 26, nil, false},
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("sections (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]PhaseTitle{{"0", "Foundations", 13}}, g.Phases); diff != "" {
		t.Errorf("phases (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]ReportRef{{"P0-T1", 17}, {"P0-G1", 25}}, g.Reports); diff != "" {
		t.Errorf("reports (-want +got):\n%s", diff)
	}
}

func TestParseLog(t *testing.T) {
	src := "# Log\n\n## Status board\n\n| `ID` | Delivery | **Verdict** | Model |\n|:--|---|---|---|\n| P0-T1 | done | `approved` | opus |\n| P0-G1 | — | PENDING | |\n\n" +
		"### P0-T1 — done\n\n**Verify output:**\n```text\n### P0-T7 — DONE\n---\n**Field:** x\n```\n**Observations:** none\n\n" +
		"### P0-T1 — DONE (again)\n" +
		"### P0-G1 - Pending  \n\n---\n\n**Verify output:**\n```\nlate\n```\n"
	l := ParseLog(LogFile, src)
	type head struct {
		ID, State                           string
		Line, EndLine, EvidenceLine, Fences int
	}
	var got []head
	for _, h := range l.Headings {
		got = append(got, head{h.ID, h.State, int(h.Line), int(h.EndLine), int(h.Evidence.Line), len(l.EvidenceFences(h))})
	}
	want := []head{
		{"P0-T1", "DONE", 10, 20, 12, 1}, // a non-matching "###" line still ends the report
		{"P0-G1", "PENDING", 21, 23, 0, 0},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("headings (-want +got):\n%s", diff)
	}
	wantBoard := &Board{Line: 5, Rows: []BoardRow{{"P0-T1", "APPROVED", "opus", 7}, {"P0-G1", "PENDING", "", 8}}}
	if diff := cmp.Diff(wantBoard, l.Board); diff != "" {
		t.Errorf("board (-want +got):\n%s", diff)
	}
	if got := l.EvidenceFences(l.Headings[0])[0].Content; got != "### P0-T7 — DONE\n---\n**Field:** x" {
		t.Errorf("fence content = %q", got)
	}
}

func TestFences(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []Fence
	}{
		{"backticks", "a\n```go\nx\n```\nb", []Fence{{Line: 2, End: 4, Content: "x", Closed: true}}},
		{"tildes longer close", "~~~\nx\n~~~~~\n", []Fence{{Line: 1, End: 3, Content: "x", Closed: true}}},
		{"four backticks hold three", "````\n```\nx\n```\n````\n", []Fence{{Line: 1, End: 5, Content: "```\nx\n```", Closed: true}}},
		{"backtick info with backtick is not a fence", "```a`b\nx\n", nil},
		{"unclosed runs to end", "```\nx\ny", []Fence{{Line: 1, End: 4, Content: "x\ny", Closed: false}}},
		{"indented in list", "- item\n    ```\n    x\n    ```\n", []Fence{{Line: 2, End: 4, Content: "    x", Closed: true}}},
		{"close needs same char", "```\n~~~\n```\n", []Fence{{Line: 1, End: 3, Content: "~~~", Closed: true}}},
		{"unicode info", "```日本語\nx\n```\n", []Fence{{Line: 1, End: 3, Content: "x", Closed: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, newText(tt.src).fences, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("fences (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParsePlan(t *testing.T) {
	src := "# P\n\n## 1. Opportunity\n\n**Target outcome:** faster\nclose\n\n**Problem:** <problem>\n\n## Non-goals\n\n- none of that\n\n## Phases\n\n| Phase | Weight |\n|---|---|\n| P0 | 2 |\n"
	p := ParsePlan(PlanFile, src)
	if f, ok := p.Field("target outcome"); !ok || f.Value != "faster\nclose" || f.Line != 5 {
		t.Errorf("Field(target outcome) = %+v, %v", f, ok)
	}
	if s, ok := p.Section("Non-goals"); !ok || TrimSpace(s.Body) != "- none of that" {
		t.Errorf("Section(Non-goals) = %+v, %v", s, ok)
	}
	if _, ok := p.Section("Opportunity"); !ok {
		t.Error("numbered section title not recognised")
	}
	tb, ok := p.TableWith("phase", "weight")
	if !ok || tb.Line != 16 || len(tb.Rows) != 2 || tb.Rows[1][1] != "2" {
		t.Errorf("TableWith = %+v, %v", tb, ok)
	}
}

func TestItems(t *testing.T) {
	l := ParseLog(LogFile, "| ID | Verdict |\n|--|--|\n| A1 | APPROVED |\n| A1 | PENDING |\n\n### A1 — DONE\n### B2 — REJECTED\n### B2 — DONE\n")
	got := l.Items()
	want := []Item{{ID: "A1", Report: "DONE", Line: 3}, {ID: "B2", Report: "DONE", HeaderVerdict: "REJECTED", Line: 7}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	if got[0].State() != AwaitingAudit || got[1].State() != Rejected {
		t.Errorf("states = %s, %s", got[0].State(), got[1].State())
	}
}

func TestPhaseOf(t *testing.T) {
	for id, want := range map[string]string{"P0-T1": "0", "p01-G2": "1", "P123456789012345678901234567890-T1": "123456789012345678901234567890"} {
		if got, ok := PhaseOf(id); !ok || got != want {
			t.Errorf("PhaseOf(%q) = %q, %v; want %q", id, got, ok, want)
		}
	}
	if _, ok := PhaseOf("T1"); ok {
		t.Error("PhaseOf(T1) found a phase")
	}
	if !LessNumber("2", "10") || LessNumber("10", "9") {
		t.Error("LessNumber is not numeric")
	}
}

func TestLines(t *testing.T) {
	tests := map[string][]string{
		"":          {""},
		"\n":        {""},
		"a":         {"a"},
		"a\n":       {"a"},
		"a\n\n":     {"a", ""},
		"a\r\nb\rc": {"a", "b", "c"},
		"\ufeffa\n": {"a"},
	}
	for src, want := range tests {
		tx := newText(src)
		var got []string
		for i := 0; i < tx.n; i++ {
			got = append(got, tx.line(i))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("lines of %q (-want +got):\n%s", src, diff)
		}
	}
}

// TestFenceNegativeControl: with fence detection off, a verdict heading
// pasted inside a fenced block becomes a real verdict. Fences are the
// protection that stops pasted output from approving itself.
func TestFenceNegativeControl(t *testing.T) {
	src := "### P0-T1 — DONE\n\n**Verify output:**\n```\n### P0-T1 — APPROVED\n```\n"
	if got := ParseLog(LogFile, src).Items()[0].State(); got != AwaitingAudit {
		t.Fatalf("with fences, state = %s, want %s", got, AwaitingAudit)
	}
	if got := parseLog(LogFile, src, false).Items()[0].State(); got != Approved {
		t.Errorf("without fences, state = %s; the pasted verdict should have counted", got)
	}
}

func TestUnclosed(t *testing.T) {
	if l := ParseLog(LogFile, "```\nok\n```\n"); l.Unclosed != nil {
		t.Errorf("closed fence reported unclosed: %+v", l.Unclosed)
	}
	l := ParseLog(LogFile, "a\n```\nok\n```\n~~~\nrest\n")
	if l.Unclosed == nil || l.Unclosed.Line != 5 {
		t.Errorf("Unclosed = %+v, want the fence on line 5", l.Unclosed)
	}
	if g := ParseGuide(GuideFile, "````\n```\n"); g.Unclosed == nil || g.Unclosed.Line != 1 {
		t.Errorf("guide Unclosed = %+v, want line 1", g.Unclosed)
	}
}
