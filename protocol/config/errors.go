package config

import (
	"sort"

	"github.com/aepgate/aepgate/protocol/position"
)

// Error is one problem found in a config file, positioned at the line and
// column of the YAML node it concerns (1-based; 0 when unknown); its Field
// is e.g. "negative_controls[1].timeout", empty for syntax errors. It
// formats as "file:line:col: field: message", the form editors and GitHub
// annotations understand.
type Error = position.Problem

// Errors is every problem found in one file, sorted by position, joined one
// per line. Parse returns it as its error so that callers can report all
// problems at once.
type Errors = position.Problems

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
