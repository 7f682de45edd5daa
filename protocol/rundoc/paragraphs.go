package rundoc

import (
	"iter"
	"strings"
)

// Paragraphs yields each run of non-blank lines: its 1-based first line and
// its text (a substring of the document, newlines kept).
func (l *Log) Paragraphs() iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		if l == nil {
			return
		}
		src := l.src
		start, first, end := -1, 0, 0 // paragraph's offset, first line, end offset
		for off, n := 0, 1; off <= len(src); n++ {
			line, next := src[off:], len(src)+1
			if i := strings.IndexByte(line, '\n'); i >= 0 {
				line, next = line[:i], off+i+1
			}
			switch {
			case !IsBlank(line):
				if start < 0 {
					start, first = off, n
				}
				end = off + len(line)
			case start >= 0:
				if !yield(first, src[start:end]) {
					return
				}
				start = -1
			}
			if next == len(src) {
				break // a final newline ends the last line; it does not start another
			}
			off = next
		}
		if start >= 0 {
			yield(first, src[start:end])
		}
	}
}
