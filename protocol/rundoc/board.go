package rundoc

import "strings"

// boardReader finds the status board: the first table whose header has
// "id" and "verdict" columns. A table is a run of lines starting with "|"
// outside fenced blocks.
type boardReader struct {
	inTable           bool // the previous line was a table line
	reading           bool // the current table is the board
	done              bool // the board has been read
	id, verdict, exec int
	row               []string
}

// line handles the current line.
func (r *boardReader) line(l *Log, sc *scanner) {
	if r.done {
		return
	}
	if sc.fenced || !isTableLine(sc.line) {
		r.inTable = false
		r.done = r.reading
		return
	}
	if !r.inTable {
		r.inTable = true
		tb := Table{Header: splitHeader(sc.line)}
		r.id, r.verdict, r.exec = tb.Col("id"), tb.Col("verdict"), tb.Col("executor", "model")
		if r.reading = r.id >= 0 && r.verdict >= 0; r.reading {
			l.Board = &Board{Line: sc.i + 1, Rows: make([]BoardRow, 0, tableLinesAfter(sc))}
		}
		return
	}
	if !r.reading {
		return
	}
	r.row = appendRow(r.row[:0], sc.line)
	if len(r.row) <= max(r.id, r.verdict) || IsRuleCell(r.row[r.id]) {
		return
	}
	row := BoardRow{ID: r.row[r.id], Verdict: upperWord(r.row[r.verdict]), Line: sc.i + 1}
	if r.exec >= 0 && r.exec < len(r.row) {
		row.Executor = r.row[r.exec]
	}
	l.Board.Rows = append(l.Board.Rows, row)
}

// tableLinesAfter counts the table lines that follow the current line, up
// to the first other line or the end of the scan: the rows of the table the
// current line heads, which sizes Board.Rows once. None of them is fenced,
// as the header is not: a line starting with "|" opens no fenced block.
func tableLinesAfter(sc *scanner) int {
	if sc.last {
		return 0
	}
	n, rest := 0, sc.src[sc.next:sc.end]
	for rest != "" {
		line, after, _ := strings.Cut(rest, "\n")
		if !isTableLine(line) {
			break
		}
		n, rest = n+1, after
	}
	return n
}
