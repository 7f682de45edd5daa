package config

import (
	"fmt"
	"sort"
	"strings"
)

// Error is one problem found in a config file, positioned at the line and
// column of the YAML node it concerns (1-based; 0 when unknown).
type Error struct {
	File    string
	Line    int
	Column  int
	Field   string // e.g. "negative_controls[1].timeout"; empty for syntax errors
	Message string
}

// Error formats the problem as "file:line:col: field: message", the form
// editors and GitHub annotations understand.
func (e Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ":%d", e.Column)
		}
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Message)
	return b.String()
}

// Errors is every problem found in one file, sorted by position. Parse
// returns it as its error so that callers can report all problems at once.
type Errors []Error

// Error joins the problems, one per line.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// sortErrors orders errors by line, then column, keeping the order of
// discovery for errors at the same position.
func sortErrors(es Errors) {
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].Line != es[j].Line {
			return es[i].Line < es[j].Line
		}
		return es[i].Column < es[j].Column
	})
}
