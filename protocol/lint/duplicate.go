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
	for line, text := range c.log.Paragraphs() {
		n := normalizeParagraph(text)
		if utf8.RuneCountInString(n) < minDuplicateLen {
			continue
		}
		d, ok := counts[n]
		if !ok {
			d = &dup{line: line}
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
// to one space and trims. Paragraphs too short to reach the minimum are
// returned as "" without work.
func normalizeParagraph(p string) string {
	if len(p) < minDuplicateLen {
		return ""
	}
	var b strings.Builder
	b.Grow(len(p))
	space := false
	for len(p) > 0 {
		line := p
		if i := strings.IndexByte(p, '\n'); i >= 0 {
			line, p = p[:i], p[i+1:]
		} else {
			p = ""
		}
		if isHeading3(line) {
			continue
		}
		for _, r := range line {
			if rundoc.IsSpace(r) {
				space = b.Len() > 0
				continue
			}
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteRune(r)
		}
		space = b.Len() > 0
	}
	return b.String()
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
