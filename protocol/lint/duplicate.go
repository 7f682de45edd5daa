package lint

import (
	"cmp"
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
// text and the line where each first appears; only the repeated ones are
// read again for their text.
func (c *checker) duplicates() {
	seed := maphash.MakeSeed()
	first := map[uint64]int32{} // hash → first line (documents are under 2 GiB)
	repeats := map[uint64]int{} // hash → occurrences, once it repeats
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
		if _, seen := first[key]; !seen {
			first[key] = int32(line)
		} else {
			repeats[key] = max(repeats[key], 1) + 1
		}
	}
	for _, d := range c.repeated(first, repeats) {
		c.add(Problem{Rule: "L8", Tag: "[duplicate content]", File: c.log.File, Line: d.line,
			Count: d.count, Excerpt: preview(string(appendNormalized(nil, d.first))),
			Message: fmt.Sprintf("paragraph repeated %d times verbatim", d.count)})
	}
}

// dup is a repeated paragraph: where it first appears, how often, and its
// first occurrence as written.
type dup struct {
	line, count int
	first       string
}

// repeated returns the repeated paragraphs in order of first appearance,
// with their text.
func (c *checker) repeated(first map[uint64]int32, repeats map[uint64]int) []dup {
	if len(repeats) == 0 {
		return nil
	}
	dups := make([]dup, 0, len(repeats))
	at := make(map[int]int, len(repeats)) // first line → index in dups
	for key, n := range repeats {
		at[int(first[key])] = len(dups)
		dups = append(dups, dup{line: int(first[key]), count: n})
	}
	for line, text := range c.log.Paragraphs() {
		if k, ok := at[line]; ok {
			dups[k].first = text
		}
	}
	slices.SortFunc(dups, func(a, b dup) int { return cmp.Compare(a.line, b.line) })
	return dups
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
			if j := plainRun(line, i); j > i { // copied whole
				if space {
					dst = append(dst, ' ')
					space = false
				}
				dst = append(dst, line[i:j]...)
				i = j
				continue
			}
			if line[i] < utf8.RuneSelf { // an ASCII space
				i++
				space = len(dst) > base
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

// plainRun returns the end of the run of ASCII characters other than
// whitespace that starts at i.
func plainRun(s string, i int) int {
	for i < len(s) && s[i] < utf8.RuneSelf && !asciiSpace[s[i]] {
		i++
	}
	return i
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
