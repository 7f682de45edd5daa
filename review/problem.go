package review

import (
	"fmt"
	"strings"
)

// Problem is one reason an audit block, its evidence or its place in the
// ledger is refused. Path is a JSON path into the block, such as
// "$.findings[0].evidence[1].quote", or "$" for the block as a whole.
type Problem struct {
	Path, Message string
}

// Error renders the problem as "$.findings[0].evidence: too few entries".
func (p Problem) Error() string { return p.Path + ": " + p.Message }

// Problems are every problem found, in the order they were found.
type Problems []Problem

// Error joins the problems with "; ".
func (ps Problems) Error() string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Error()
	}
	return strings.Join(out, "; ")
}

// add appends a problem at path.
func (ps *Problems) add(path, format string, args ...any) {
	*ps = append(*ps, Problem{Path: path, Message: fmt.Sprintf(format, args...)})
}
