package rundoc

import (
	"iter"
	"strings"
)

// Verdict words, as the Auditor writes them.
const (
	Approved    = "APPROVED"
	Conditional = "CONDITIONAL"
	Rejected    = "REJECTED"
	Done        = "DONE"
	Pending     = "PENDING"
)

// IsVerdict reports whether an uppercased state word is an Auditor verdict.
func IsVerdict(w string) bool { return w == Approved || w == Conditional || w == Rejected }

// Log is a parsed compliance-log.md.
type Log struct {
	File     string
	Headings []Heading
	// Board is the status board, if the log has one.
	Board *Board
	// Unclosed is a fenced block that is never closed: everything after it
	// is code, as GitHub renders it. Nil when every fence closes.
	Unclosed *Fence
	items    []Item
	index    map[string]int // ID → position in items
	src      string         // the normalized document, for Paragraphs
}

// Heading is one "### <ID> — <WORD>" report or verdict heading. State is the
// word uppercased. Body is the report's extent: the lines after the heading
// up to the next heading or "---" line outside fenced blocks.
type Heading struct {
	ID       string
	State    string
	Line     int
	EndLine  int // 1-based line after the body
	Evidence Evidence
}

// Evidence is the "**Verify output:**" field of a report.
type Evidence struct {
	// Line is the label's line, 0 when the report has no such field.
	Line int
	// Fences are the fenced blocks inside the field.
	Fences []Fence
}

// Board is the status board: the first table whose header has "id" and
// "verdict" columns.
type Board struct {
	Line int
	Rows []BoardRow
}

// BoardRow is one row of the status board. Verdict is uppercased.
type BoardRow struct {
	ID       string
	Verdict  string
	Executor string
	Line     int
}

// ParseLog parses a compliance log. Headings inside fenced blocks (pasted
// output) are content.
func ParseLog(file, b string) *Log { return parseLog(file, newText(b)) }

// parseLog parses a compliance log already split into lines.
func parseLog(file string, t *text) *Log {
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
		h := Heading{ID: id, State: strings.ToUpper(word), Line: i + 1}
		end := reportEnd(t, i+1)
		h.EndLine = end + 1
		h.Evidence = evidence(t, i+1, end)
		l.Headings = append(l.Headings, h)
	}
	l.Board = board(t)
	l.Unclosed = t.unclosed()
	l.src = t.src
	l.items, l.index = l.combine()
	return l
}

// reportEnd returns the index of the first line at or after from that ends
// a report: a heading or a "---" line, outside fenced blocks.
func reportEnd(t *text, from int) int {
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
func evidence(t *text, from, to int) Evidence {
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
		return Evidence{Line: i + 1, Fences: t.fencesIn(i+1, end)}
	}
	return Evidence{}
}

// board reads the status board: the first table with "id" and "verdict"
// columns. Rows are read into one reused cell buffer.
func board(t *text) *Board {
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

// Paragraphs yields each run of non-blank lines: its 1-based first line and
// its text (a substring of the document, newlines kept).
func (l *Log) Paragraphs() iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		if l == nil {
			return
		}
		src := l.src
		start, first, end := -1, 0, 0 // paragraph's offset, first line, end offset
		for off, n := 0, 1; off <= len(src); n++ {
			line, next := src[off:], len(src)+1
			if i := strings.IndexByte(line, '\n'); i >= 0 {
				line, next = line[:i], off+i+1
			}
			switch {
			case !IsBlank(line):
				if start < 0 {
					start, first = off, n
				}
				end = off + len(line)
			case start >= 0:
				if !yield(first, src[start:end]) {
					return
				}
				start = -1
			}
			if next == len(src) {
				break // a final newline ends the last line; it does not start another
			}
			off = next
		}
		if start >= 0 {
			yield(first, src[start:end])
		}
	}
}
