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

func splitRow(line string) []string {
	s := strings.TrimSpace(line)
	s = strings.TrimPrefix(s, "|")
	s = strings.TrimSuffix(s, "|")
	cells := strings.Split(s, "|")
	for i, c := range cells {
		cells[i] = NormCell(c)
	}
	return cells
}

// tables finds every pipe table: a run of consecutive lines starting with
// "|" outside fenced blocks. The first line is the header.
func (t *text) tables() []Table {
	var out []Table
	for i := 0; i < t.n; i++ {
		if t.fenced[i] || !isTableLine(t.line(i)) {
			continue
		}
		hdr := splitRow(t.line(i))
		for k := range hdr {
			hdr[k] = strings.ToLower(hdr[k])
		}
		tb := Table{Line: i + 1, Header: hdr}
		for i++; i < t.n && !t.fenced[i] && isTableLine(t.line(i)); i++ {
			tb.Rows = append(tb.Rows, splitRow(t.line(i)))
			tb.RowLines = append(tb.RowLines, i+1)
		}
		out = append(out, tb)
		i--
	}
	return out
}

// IsRuleCell reports whether a cell is made only of '-', ':' and spaces (a
// delimiter-row cell, or an empty cell).
func IsRuleCell(c string) bool {
	return strings.Trim(c, "-: ") == ""
}
