package rundoc

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The parsers as they were before they became one pass over the document:
// each line indexed, fences marked per line, every report's end and
// evidence searched from its heading. They are the oracle of FuzzStreaming.

// ParseGuide parses an execution guide. Headings and Report lines inside
// fenced blocks are content, not structure.
func oldParseGuide(file, b string) *Guide {
	t := newText(b)
	g := &Guide{File: file, Sections: make([]Section, 0, t.count("###")),
		Reports: make([]ReportRef, 0, strings.Count(t.src, "**Report:**"))}
	cur := -1 // index into g.Sections
	bodyStart := 0
	closeSection := func(end int) {
		if cur >= 0 {
			g.Sections[cur].Body = t.join(bodyStart, end)
			g.Sections[cur].Reports.To = int32(len(g.Reports))
		}
	}
	for i := 0; i < t.n; i++ {
		line := t.line(i)
		if t.fenced[i] {
			continue
		}
		if strings.HasPrefix(line, "###") {
			if id, title, ok := guideHeading(line); ok {
				closeSection(i)
				at := int32(len(g.Reports))
				g.Sections = append(g.Sections, Section{ID: id, Title: TrimSpace(title), Line: i + 1, Reports: Span{at, at}})
				cur, bodyStart = len(g.Sections)-1, i+1
				continue
			}
		}
		if strings.HasPrefix(line, "#") {
			if num, title, ok := phaseHeading(line); ok {
				g.Phases = append(g.Phases, PhaseTitle{Phase: NormNumber(num), Title: TrimSpace(title), Line: i + 1})
			}
		}
		if strings.Contains(line, "**Report:**") {
			g.Reports = appendReportRefs(g.Reports, line, i+1)
		}
	}
	closeSection(t.n)
	g.Unclosed = t.unclosed()
	return g
}

// parseLog parses a compliance log already split into lines.
func oldParseLog(file string, t *text) *Log {
	l := &Log{File: file, Headings: make([]Heading, 0, t.count("###"))}
	for i := 0; i < t.n; i++ {
		line := t.line(i)
		if t.fenced[i] || !strings.HasPrefix(line, "###") {
			continue
		}
		id, word, ok := logHeading(line)
		if !ok {
			continue
		}
		h := Heading{ID: id, State: strings.ToUpper(word), Line: int32(i) + 1}
		end := oldReportEnd(t, i+1)
		h.EndLine = int32(end) + 1
		h.Evidence = oldEvidence(t, i+1, end)
		l.Headings = append(l.Headings, h)
	}
	l.Board = oldBoard(t)
	l.Fences, l.Unclosed = t.fences, t.unclosed()
	l.src = t.src
	l.items, l.index = l.combine()
	return l
}

// reportEnd returns the index of the first line at or after from that ends
// a report: a heading or a "---" line, outside fenced blocks.
func oldReportEnd(t *text, from int) int {
	for i := from; i < t.n; i++ {
		if t.fenced[i] {
			continue
		}
		line := t.line(i)
		if isBodyEnd(line) {
			return i
		}
		if strings.HasPrefix(line, "---") && strings.TrimRight(line, " \t") == "---" {
			return i
		}
	}
	return t.n
}

// evidence finds the Verify output field in lines [from, to).
func oldEvidence(t *text, from, to int) Evidence {
	for i := from; i < to; i++ {
		if t.fenced[i] || !strings.HasPrefix(t.line(i), "**Verify output:**") {
			continue
		}
		end := to
		for k := i + 1; k < to; k++ {
			if !t.fenced[k] && isBoldField(t.line(k)) {
				end = k
				break
			}
		}
		from, to := t.fencesIn(i+1, end)
		return Evidence{Line: int32(i) + 1, Fences: Span{int32(from), int32(to)}}
	}
	return Evidence{}
}

// board reads the status board: the first table with "id" and "verdict"
// columns. Rows are read into one reused cell buffer.
func oldBoard(t *text) *Board {
	var b *Board
	t.tableSpans(func(hdr, end int) bool {
		tb := Table{Header: t.header(hdr)}
		id, verdict := tb.Col("id"), tb.Col("verdict")
		if id < 0 || verdict < 0 {
			return true
		}
		exec := tb.Col("executor", "model")
		b = &Board{Line: hdr + 1, Rows: make([]BoardRow, 0, end-hdr-1)}
		var row []string
		for i := hdr + 1; i < end; i++ {
			row = appendRow(row[:0], t.line(i))
			if len(row) <= max(id, verdict) || IsRuleCell(row[id]) {
				continue
			}
			r := BoardRow{ID: row[id], Verdict: strings.ToUpper(row[verdict]), Line: i + 1}
			if exec >= 0 && exec < len(row) {
				r.Executor = row[exec]
			}
			b.Rows = append(b.Rows, r)
		}
		return false
	})
	return b
}

// checkStreaming compares ParseGuide and ParseLog with the line-indexed
// parsers on the same text.
func checkStreaming(t *testing.T, src string) {
	t.Helper()
	opts := []cmp.Option{cmp.AllowUnexported(Log{}), cmpopts.IgnoreFields(Log{}, "items", "index", "src"), cmpopts.EquateEmpty()}
	if diff := cmp.Diff(oldParseGuide(GuideFile, src), ParseGuide(GuideFile, src), opts...); diff != "" {
		t.Fatalf("ParseGuide(%q) differs (-old +new):\n%s", src, diff)
	}
	if diff := cmp.Diff(oldParseLog(LogFile, newText(src)), ParseLog(LogFile, src), opts...); diff != "" {
		t.Fatalf("ParseLog(%q) differs (-old +new):\n%s", src, diff)
	}
}

var streamingSeeds = []string{
	"",
	"\n",
	"### P0-T1 — Do\n**Report:** `P0-T1`\n```\n### P0-T9 — x\n```\n# Phase 1 — a\n### P1-T1 — y\n**Report:** P1-T1. **Report:** `P1-T2`",
	"### P0-T1 — DONE\n\n**Verify output:**\n```\nok\n```\n~~~\nmore\n~~~\n**Observations:** none\n```\nafter\n```\n---\n### P0-T1 — APPROVED\n",
	"| ID | Verdict | Executor |\n|--|--|--|\n| A1 | approved | x |\n```\n| A2 | y |\n```\n| A3 | DONE |\n\n| id | verdict |\n| B1 | REJECTED |\n",
	"| x | y |\n| 1 | 2 |\n\n  | ID | Model | Verdict |\n| P0-T1 | m | `APPROVED` |\n",
	"### P0-T1 — DONE\n**Verify output:** x\n**Verify output:**\n````\n```\n### A — DONE\n",
	"### P0-T1 — DONE\r\n**Verify output:**\r\n```\r\nok\r\n```\r\n## Next\r### P0-T2 — DONE\n```",
	"\ufeff### X1 — DONE\n#\n**Verify output:**\n```\n",
	"```\n```\n```",
}

func FuzzStreaming(f *testing.F) {
	for _, s := range streamingSeeds {
		f.Add(s)
	}
	f.Fuzz(checkStreaming)
}

func TestStreamingMatchesLineIndex(t *testing.T) {
	for _, s := range streamingSeeds {
		checkStreaming(t, s)
	}
}

// unclosed returns the fence that is never closed, if any (only the last
// fence of a document can be unclosed).
func (t *text) unclosed() *Fence {
	if k := len(t.fences); k > 0 && !t.fences[k-1].Closed {
		f := t.fences[k-1]
		return &f
	}
	return nil
}

// fencesIn returns the range of t.fences whose opening line index is in
// [from, to).
func (t *text) fencesIn(from, to int) (i, j int) {
	i = sort.Search(len(t.fences), func(k int) bool { return int(t.fences[k].Line)-1 >= from })
	j = i
	for j < len(t.fences) && int(t.fences[j].Line)-1 < to {
		j++
	}
	return i, j
}
