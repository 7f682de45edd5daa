package rundoc

import "strings"

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
	// Fences are the log's fenced blocks in document order; a report's
	// evidence is a range of them (EvidenceFences).
	Fences []Fence
	items  []Item
	index  idIndex // ID → position in items
	src    string  // the normalized document, for Paragraphs
}

// Heading is one "### <ID> — <WORD>" report or verdict heading. State is the
// word uppercased. Body is the report's extent: the lines after the heading
// up to the next heading or "---" line outside fenced blocks. Line numbers
// are int32, which holds any line number of a document under 1 GiB (see
// Files).
type Heading struct {
	ID       string
	State    string
	Line     int32
	EndLine  int32 // 1-based line after the body
	Evidence Evidence
}

// Evidence is the "**Verify output:**" field of a report.
type Evidence struct {
	// Line is the label's line, 0 when the report has no such field.
	Line int32
	// Fences are the fenced blocks inside the field: the log's Fences in
	// this span (EvidenceFences); empty without the field.
	Fences Span
}

// EvidenceFences returns the fenced blocks inside h's Verify output field.
func (l *Log) EvidenceFences(h Heading) []Fence {
	f := h.Evidence.Fences
	return l.Fences[f.From:f.To:f.To]
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

// ParseLog parses a compliance log in one pass. Headings inside fenced
// blocks (pasted output) are content. A log of splitLogMin bytes or more is
// parsed in two halves at once (splitLog), with the same result.
func ParseLog(file, b string) *Log { return parseLogSplit(file, normalize(b), splitLogMin) }

// splitLogMin is the size from which ParseLog parses a log in two halves.
const splitLogMin = 1 << 20

// parseLogSplit is ParseLog on a normalized log with the size from which
// it splits as a parameter, so that tests split small logs too.
func parseLogSplit(file, src string, minSize int) *Log {
	if len(src) < minSize {
		return parseLog(file, src, true)
	}
	l, spare, ok := splitLog(file, src)
	switch {
	case ok:
		return l
	case spare.heads != nil: // declined after parsing: its arrays are sized
		return parseLogInto(file, src, true, spare)
	}
	return parseLog(file, src, true)
}

// parseLog parses a normalized compliance log; with fences false every line
// reads as unfenced, which the negative-control test uses to show that
// fences keep pasted output from becoming structure.
func parseLog(file, src string, fences bool) *Log {
	a := logArrays{heads: make([]Heading, 0, strings.Count(src, "###"))}
	if fences {
		a.fences = make([]Fence, 0, fenceBound(src))
	}
	return parseLogInto(file, src, fences, a)
}

// logArrays are the arrays a parse of a log fills, sized beforehand: its
// headings and, when fences are located, its fences.
type logArrays struct {
	heads  []Heading
	fences []Fence
}

// parseLogInto is parseLog appending to the empty slices of a.
func parseLogInto(file, src string, fences bool, a logArrays) *Log {
	l := &Log{File: file, src: src, Headings: a.heads}
	p := &logParser{log: l, sc: newScanner(src, fences, true), cur: -1}
	p.sc.found = a.fences
	p.run()
	found, unclosed := p.sc.finish()
	p.endReport(p.sc.i + 1)
	p.finish(found, unclosed)
	return l
}

// fenceBound is an upper bound of the fenced blocks in src: each takes two
// fence lines, but for the last, which may be left open.
func fenceBound(src string) int {
	return (strings.Count(src, "```")+strings.Count(src, "~~~"))/2 + 1
}

func (p *logParser) run() {
	for p.sc.scan() {
		p.line()
	}
}

// finish keeps the fences and indexes the items.
func (p *logParser) finish(found []Fence, unclosed *Fence) {
	l := p.log
	l.Fences, l.Unclosed = found, unclosed
	l.items, l.index = l.combine()
}

// logParser is the state of one pass over a log: the report still open
// (its body runs to the next heading or "---" line outside fenced blocks),
// its Verify output field, and the status board's table.
type logParser struct {
	log   *Log
	sc    *scanner
	cur   int // open report (index into Headings), -1 when none
	field int // state of the open report's Verify output: 0 none yet, 1 open, 2 closed
	board boardReader
}

// line handles the current line.
func (p *logParser) line() {
	sc, line := p.sc, p.sc.line
	p.board.line(p.log, sc)
	if sc.fenced {
		return
	}
	if p.cur >= 0 {
		if isBodyEnd(line) || strings.HasPrefix(line, "---") && strings.TrimRight(line, " \t") == "---" {
			p.endReport(sc.i)
		} else {
			p.evidenceLine(line)
		}
	}
	if !strings.HasPrefix(line, "###") {
		return
	}
	if id, word, ok := logHeading(line); ok {
		l := p.log
		l.Headings = grow(l.Headings)
		l.Headings = append(l.Headings, Heading{ID: id, State: upperWord(word), Line: sc.lineNo()})
		p.cur, p.field = len(l.Headings)-1, 0
	}
}

// evidenceLine follows the open report's Verify output field: it starts at
// the first "**Verify output:**" line and ends at the next bold field; the
// fenced blocks opened in between are its evidence.
func (p *logParser) evidenceLine(line string) {
	e := &p.log.Headings[p.cur].Evidence
	switch {
	case p.field == 1 && isBoldField(line):
		e.Fences.To = int32(len(p.sc.found))
		p.field = 2
	case p.field == 0 && strings.HasPrefix(line, "**Verify output:**"):
		e.Line = p.sc.lineNo()
		at := int32(len(p.sc.found))
		e.Fences = Span{at, at}
		p.field = 1
	}
}

// endReport ends the open report at line index end.
func (p *logParser) endReport(end int) {
	if p.cur < 0 {
		return
	}
	p.log.Headings[p.cur].EndLine = int32(end) + 1
	if p.field == 1 {
		p.log.Headings[p.cur].Evidence.Fences.To = int32(len(p.sc.found))
	}
	p.cur = -1
}
