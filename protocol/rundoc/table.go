package rundoc

import "strings"

// Table is a Markdown pipe table outside fenced blocks. Header and Rows hold
// normalized cells (see NormCell); Header is also lowercased. Line is the
// 1-based line of the header row; RowLines gives each row's line.
type Table struct {
	Line     int
	Header   []string
	Rows     [][]string
	RowLines []int
}

// Col returns the index of the first header cell equal to one of names
// (lowercase), or -1.
func (t Table) Col(names ...string) int {
	for i, h := range t.Header {
		for _, n := range names {
			if h == n {
				return i
			}
		}
	}
	return -1
}

// NormCell trims a cell and strips backticks and asterisks at both ends, as
// aepkit does for the status board.
func NormCell(c string) string {
	return TrimSpace(strings.Trim(TrimSpace(c), "`*"))
}

func isTableLine(line string) bool {
	return strings.HasPrefix(strings.TrimLeft(line, " \t"), "|")
}

func splitRow(line string) []string { return appendRow(nil, line) }

// appendRow appends the normalized cells of a table row to cells.
func appendRow(cells []string, line string) []string {
	s := strings.TrimSpace(line)
	s = strings.TrimPrefix(s, "|")
	s = strings.TrimSuffix(s, "|")
	for {
		c, rest, more := strings.Cut(s, "|")
		cells = append(cells, NormCell(c))
		if !more {
			return cells
		}
		s = rest
	}
}

// tableSpans yields each pipe table, a run of consecutive lines starting
// with "|" outside fenced blocks, as its header line index and the index
// after its last row, until yield returns false.
func (t *text) tableSpans(yield func(hdr, end int) bool) {
	for i := 0; i < t.n; i++ {
		if t.fenced[i] || !isTableLine(t.line(i)) {
			continue
		}
		end := i + 1
		for end < t.n && !t.fenced[end] && isTableLine(t.line(end)) {
			end++
		}
		if !yield(i, end) {
			return
		}
		i = end - 1
	}
}

// header returns the lowercased, normalized cells of line i.
func (t *text) header(i int) []string { return splitHeader(t.line(i)) }

// splitHeader returns the lowercased, normalized cells of a header row.
func splitHeader(line string) []string {
	hdr := splitRow(line)
	for k := range hdr {
		hdr[k] = strings.ToLower(hdr[k])
	}
	return hdr
}

// tables returns every pipe table.
func (t *text) tables() []Table {
	var out []Table
	t.tableSpans(func(hdr, end int) bool {
		tb := Table{Line: hdr + 1, Header: t.header(hdr)}
		for i := hdr + 1; i < end; i++ {
			tb.Rows = append(tb.Rows, splitRow(t.line(i)))
			tb.RowLines = append(tb.RowLines, i+1)
		}
		out = append(out, tb)
		return true
	})
	return out
}

// IsRuleCell reports whether a cell is made only of '-', ':' and spaces (a
// delimiter-row cell, or an empty cell).
func IsRuleCell(c string) bool {
	return strings.Trim(c, "-: ") == ""
}
