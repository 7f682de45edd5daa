package lint

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

const (
	// minDuplicateLen is the shortest normalized paragraph L8 considers.
	minDuplicateLen = 120
	// previewLen is how much of a duplicated paragraph the report shows.
	previewLen = 100
)

// duplicates is L8: a normalized log paragraph of at least 120 characters
// that occurs more than once, reported once per distinct paragraph in order
// of first appearance.
func (c *checker) duplicates() []Problem {
	type dup struct {
		line, count int
	}
	counts := map[string]*dup{}
	var order []string
	for _, p := range c.log.Paragraphs {
		n := normalizeParagraph(p.Text)
		if utf8.RuneCountInString(n) < minDuplicateLen {
			continue
		}
		d, ok := counts[n]
		if !ok {
			d = &dup{line: p.Line}
			counts[n] = d
			order = append(order, n)
		}
		d.count++
	}
	var out []Problem
	for _, n := range order {
		d := counts[n]
		if d.count < 2 {
			continue
		}
		out = append(out, Problem{Rule: "L8", Tag: "[duplicate content]", File: c.log.File, Line: d.line,
			Count: d.count, Excerpt: preview(n),
			Message: fmt.Sprintf("paragraph repeated %d times verbatim", d.count)})
	}
	return out
}

// normalizeParagraph deletes "###" heading lines, collapses whitespace runs
// to one space and trims.
func normalizeParagraph(p string) string {
	var b strings.Builder
	b.Grow(len(p))
	for _, line := range strings.Split(p, "\n") {
		if isHeading3(line) {
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return strings.Join(strings.FieldsFunc(b.String(), rundoc.IsSpace), " ")
}

func isHeading3(line string) bool {
	if !strings.HasPrefix(line, "###") {
		return false
	}
	r, _ := utf8.DecodeRuneInString(line[3:])
	return len(line) > 3 && rundoc.IsSpace(r)
}

func preview(s string) string {
	i, n := 0, 0
	for i < len(s) && n < previewLen {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
	}
	if i < len(s) {
		return s[:i] + "…"
	}
	return s
}
