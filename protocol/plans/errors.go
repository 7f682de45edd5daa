package plans

import (
	"fmt"
	"strings"
)

// Error is one problem in a plan file, at a 1-based line (0 when unknown).
type Error struct {
	File    string
	Line    int
	Field   string // e.g. "phases[1].tasks[0].id"; empty for syntax errors
	Message string
}

// Error formats the problem as "file:line: field: message".
func (e Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field + ": ")
	}
	b.WriteString(e.Message)
	return b.String()
}

// Errors is every problem found in one file; the parsers return it as
// their error.
type Errors []Error

// Error joins the problems, one per line.
func (es Errors) Error() string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// errs collects positioned errors for one file.
type errs struct {
	file  string
	lines lines
	list  Errors
}

func (e *errs) add(field, format string, args ...any) {
	e.list = append(e.list, Error{File: e.file, Line: e.lines.at(field), Field: field, Message: fmt.Sprintf(format, args...)})
}

func (e *errs) err() error {
	if len(e.list) == 0 {
		return nil
	}
	return e.list
}
