package plans

import (
	"fmt"

	"github.com/aepgate/aepgate/protocol/position"
)

// Error is one problem in a plan file, at a 1-based line (0 when unknown),
// about a field such as "phases[1].tasks[0].id" (empty for syntax errors).
// It formats as "file:line: field: message"; plan files give no column.
type Error = position.Problem

// Errors is every problem found in one file, one per line; the parsers
// return it as their error.
type Errors = position.Problems

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
