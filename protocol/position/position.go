// Package position holds the one positioned problem type of aepgate's
// parsers: a problem in a file or in a block of a larger text (an issue
// body, a comment), at a 1-based line and column where known, about a
// field path. It is pure: no I/O, no GitHub import.
package position

import (
	"fmt"
	"strings"
)

// Problem is one positioned reason an input is refused.
type Problem struct {
	// File is the file the problem is in; empty for a text that has no
	// file name, such as an issue body or a comment.
	File string
	// Block is the 1-based line of the opening fence of the block the
	// problem is in, when the input is a fenced block of a larger text;
	// 0 otherwise.
	Block int
	// Line and Column are 1-based; 0 when unknown.
	Line   int
	Column int
	// Field is the field path, e.g. "negative_controls[1].timeout"; empty
	// for the input as a whole.
	Field   string
	Message string
}

// Error renders the problem. With a file: "file:line:col: field: message",
// the form editors and GitHub annotations understand. Without one, in a
// larger text: "line 4: field: message". An unknown line or column, or an
// empty field, is left out with its separator.
func (p Problem) Error() string {
	var b strings.Builder
	if p.File != "" {
		b.WriteString(p.File)
		if p.Line > 0 {
			fmt.Fprintf(&b, ":%d", p.Line)
			if p.Column > 0 {
				fmt.Fprintf(&b, ":%d", p.Column)
			}
		}
		b.WriteString(": ")
	} else if p.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", p.Line)
	}
	if p.Field != "" {
		b.WriteString(p.Field)
		b.WriteString(": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// String is Error, for problems listed rather than returned.
func (p Problem) String() string { return p.Error() }

// Problems is every problem found in one input. A parser returns it as its
// error so that callers can report all problems at once.
type Problems []Problem

// Error joins the problems, one per line.
func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}
