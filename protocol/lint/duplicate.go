package lint

import (
	"fmt"
	"hash/maphash"
	"slices"
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
// of first appearance. Paragraphs are counted by a hash of their normalized
// text so that only the duplicated ones are kept as strings.
func (c *checker) duplicates() {
	type dup struct {
		line, count int
		first       string // the first occurrence, as written
	}
	seed := maphash.MakeSeed()
	index := map[uint64]int{} // hash → position in dups
	var dups []dup            // in order of first appearance
	var buf []byte
	for line, text := range c.log.Paragraphs() {
		if len(text) < minDuplicateLen {
			continue // normalizing never adds characters
		}
		buf = appendNormalized(slices.Grow(buf[:0], len(text)), text)
		if len(buf) < minDuplicateLen || utf8.RuneCount(buf) < minDuplicateLen {
			continue
		}
		key := maphash.Bytes(seed, buf)
		k, ok := index[key]
		if !ok {
			k = len(dups)
			index[key] = k
			dups = append(dups, dup{line: line, first: text})
		}
		dups[k].count++
	}
	for _, d := range dups {
		if d.count < 2 {
			continue
		}
		c.add(Problem{Rule: "L8", Tag: "[duplicate content]", File: c.log.File, Line: d.line,
			Count: d.count, Excerpt: preview(string(appendNormalized(nil, d.first))),
			Message: fmt.Sprintf("paragraph repeated %d times verbatim", d.count)})
	}
}

// asciiSpace marks the ASCII characters rundoc.IsSpace accepts.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true,
	0x1c: true, 0x1d: true, 0x1e: true, 0x1f: true}

// appendNormalized appends p to dst with "###" heading lines deleted,
// whitespace runs collapsed to one space and the ends trimmed.
func appendNormalized(dst []byte, p string) []byte {
	base := len(dst)
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
		for i := 0; i < len(line); {
			if c := line[i]; c < utf8.RuneSelf {
				i++
				if asciiSpace[c] {
					space = len(dst) > base
					continue
				}
				if space {
					dst = append(dst, ' ')
					space = false
				}
				dst = append(dst, c)
				continue
			}
			r, size := utf8.DecodeRuneInString(line[i:])
			i += size
			if rundoc.IsSpace(r) {
				space = len(dst) > base
				continue
			}
			if space {
				dst = append(dst, ' ')
				space = false
			}
			dst = utf8.AppendRune(dst, r)
		}
		space = len(dst) > base
	}
	return dst
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
