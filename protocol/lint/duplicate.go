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
	var h maphash.Hash
	// hash → first line (documents are under 1 GiB). Sized for one long
	// paragraph per item of the log, a report's usual count: grown, a map
	// leaves its smaller tables behind as garbage at lint's peak of memory.
	first := make(map[uint64]int32, len(c.items))
	repeats := map[uint64]int{} // hash → occurrences, once it repeats
	var buf []byte
	for line, text := range c.log.Paragraphs() {
		if len(text) < minDuplicateLen {
			continue // normalizing never adds characters
		}
		var size, runes int
		buf, size, runes = hashNormalized(&h, buf, text, hashChunk)
		if size < minDuplicateLen || runes < minDuplicateLen {
			continue
		}
		key := h.Sum64()
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

// hashChunk is about how much of a paragraph duplicates normalizes at a
// time (hashNormalized).
const hashChunk = 64 << 10

// hashNormalized writes p's normalized text (appendNormalized) to h, after
// resetting it, and returns the text's length in bytes and in runes. It
// normalizes p a run of whole lines of up to chunk bytes at a time, in buf
// (returned for reuse), so that a paragraph of a hundred thousand lines (a
// status board) needs no buffer of its size. Lines are joined by
// whitespace, so p's normalized text is its runs' normalized texts, the
// non-empty ones joined by a space.
func hashNormalized(h *maphash.Hash, buf []byte, p string, chunk int) (out []byte, size, runes int) {
	h.Reset()
	for p != "" {
		n := len(p)
		if n > chunk {
			if n = strings.LastIndexByte(p[:chunk], '\n'); n < 0 {
				n = len(p) // one long line: up to its end
				if i := strings.IndexByte(p, '\n'); i >= 0 {
					n = i
				}
			}
		}
		buf = appendNormalized(buf[:0], p[:n])
		p = p[min(n+1, len(p)):]
		if len(buf) == 0 {
			continue
		}
		if size > 0 {
			h.WriteByte(' ')
			size, runes = size+1, runes+1
		}
		h.Write(buf)
		size, runes = size+len(buf), runes+utf8.RuneCount(buf)
	}
	return buf, size, runes
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
