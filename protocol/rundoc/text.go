package rundoc

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// Python's \s, \w and \b are Unicode-aware and Go's RE2 classes are not, so
// patterns in this module spell the Unicode classes out. Patterns are written
// with the shorthands below and expanded by Compile.
const (
	// Space is Python's Unicode \s.
	Space = `[\t\n\v\f\r \x{1c}-\x{1f}\x{85}\p{Z}]`
	// Word is Python's Unicode \w.
	Word = `[\p{L}\p{N}_]`
	// NotWord is Python's Unicode \W.
	NotWord = `[^\p{L}\p{N}_]`
)

var shorthand = strings.NewReplacer(
	`\s`, Space,
	`\w`, Word,
	`\W`, NotWord,
	`⟨`, `(?:^|`+NotWord+`)`, // a word starts here (consumes the boundary)
	`⟩`, `(?:$|`+NotWord+`)`, // a word ends here (consumes the boundary)
)

// Compile compiles a pattern after expanding \s, \w, \W to their Unicode
// meaning and ⟨ / ⟩ to left / right word boundaries. The boundaries consume
// a character, so use them only with MatchString/FindString-style checks.
// Do not use \s, \w or \W inside a bracket expression.
func Compile(pattern string) *regexp.Regexp {
	return regexp.MustCompile(shorthand.Replace(pattern))
}

// Lazy returns a function that compiles pattern as Compile does on its first
// call and returns the same *regexp.Regexp ever after, so that a program pays
// for a pattern only when it uses one (nothing is compiled at start-up).
func Lazy(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return Compile(pattern) })
}

// LazyRaw is Lazy for a plain RE2 pattern, without the shorthands.
func LazyRaw(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

// IsSpace reports whether r is whitespace in Python's sense.
func IsSpace(r rune) bool {
	if r < 0x80 {
		return r == ' ' || (r >= '\t' && r <= '\r') || (r >= 0x1c && r <= 0x1f)
	}
	return unicode.IsSpace(r) || unicode.Is(unicode.Z, r)
}

// TrimSpace trims Python-style Unicode whitespace.
func TrimSpace(s string) string { return strings.TrimFunc(s, IsSpace) }

// IsBlank reports whether a line holds only whitespace.
func IsBlank(s string) bool { return skipSpace(s) == "" }

// StripPlaceholders deletes every template placeholder (<...> on one line)
// from s.
func StripPlaceholders(s string) string {
	i, j, ok := nextPlaceholder(s)
	if !ok {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for ok {
		b.WriteString(s[:i])
		s = s[j:]
		i, j, ok = nextPlaceholder(s)
	}
	b.WriteString(s)
	return b.String()
}

// IsPlaceholder reports whether s, trimmed, is exactly one placeholder.
func IsPlaceholder(s string) bool {
	s = TrimSpace(s)
	i, j, ok := nextPlaceholder(s)
	return ok && i == 0 && j == len(s)
}

// text is a document split into lines (CRLF and lone CR read as LF, as
// Python's universal newlines do) with its fenced code blocks located.
type text struct {
	src    string  // the normalized document
	n      int     // number of lines
	starts []int32 // byte offset of each line in src, plus one past the end
	fenced []bool  // line belongs to a fenced block, fence lines included
	fences []Fence // in document order
}

// Fence is a fenced code block. Line is the 1-based line of the opening
// fence; Content is the text between the fences; End is the 1-based line of
// the closing fence, or one past the last line when the fence is never
// closed (CommonMark: it then runs to the end of the document). Line
// numbers are int32, which holds any line number of a document under 1 GiB
// (see Files).
type Fence struct {
	Line    int32
	End     int32
	Content string
	Closed  bool
}

// newText splits b into lines and locates its fenced blocks.
func newText(s string) *text { return splitText(s, true) }

// splitText splits b into lines and, when fences is set, locates its fenced
// blocks; with fences false every line reads as unfenced, which the
// negative-control test uses to show that fences keep pasted output from
// becoming structure.
func splitText(s string, fences bool) *text {
	s = normalize(s)
	n := strings.Count(s, "\n") + 1
	if n > 1 && strings.HasSuffix(s, "\n") {
		n-- // a final newline ends the last line; it does not start another
	}
	t := &text{src: s, n: n, starts: make([]int32, n+1), fenced: make([]bool, n)}
	off := 0
	for i := 0; i < n; i++ {
		t.starts[i] = int32(off)
		if k := strings.IndexByte(s[off:], '\n'); k >= 0 {
			off += k + 1
		} else {
			off = len(s) + 1
		}
	}
	t.starts[n] = int32(off)
	if fences {
		t.scanFences()
	}
	return t
}

// fenceOpen reports whether line opens a fenced block (CommonMark: three or
// more backticks or tildes; a backtick fence's info string has no backtick).
// Indentation of any depth is accepted so that fences inside list items work.
func fenceOpen(line string) (ch byte, n int, ok bool) {
	s := trimIndent(line)
	if len(s) < 3 || (s[0] != '`' && s[0] != '~') {
		return 0, 0, false
	}
	ch = s[0]
	for n < len(s) && s[n] == ch {
		n++
	}
	if n < 3 || (ch == '`' && strings.IndexByte(s[n:], '`') >= 0) {
		return 0, 0, false
	}
	return ch, n, true
}

// fenceClose reports whether line closes a block opened with n chars ch.
func fenceClose(line string, ch byte, n int) bool {
	s := trimIndent(line)
	k := 0
	for k < len(s) && s[k] == ch {
		k++
	}
	return k >= n && IsBlank(s[k:])
}

// trimIndent removes leading spaces and tabs.
func trimIndent(s string) string {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return s[i:]
}

// scanFences marks the lines of every fenced block and records the blocks.
func (t *text) scanFences() {
	t.fences = make([]Fence, 0, (t.count("```")+t.count("~~~"))/2+1)
	for i := 0; i < t.n; i++ {
		ch, n, ok := fenceOpen(t.line(i))
		if !ok {
			continue
		}
		start := i
		t.fenced[i] = true
		closed := false
		for i++; i < t.n; i++ {
			t.fenced[i] = true
			if fenceClose(t.line(i), ch, n) {
				closed = true
				break
			}
		}
		end := i // index of the closing line, or len(lines)
		t.fences = append(t.fences, Fence{
			Line:    int32(start) + 1,
			End:     int32(end) + 1,
			Content: t.join(start+1, min(end, t.n)),
			Closed:  closed,
		})
	}
}

// count returns how many lines start with prefix (an upper bound used to
// size slices).
func (t *text) count(prefix string) int {
	n := 0
	for i := 0; i < t.n; i++ {
		if strings.HasPrefix(t.src[t.starts[i]:], prefix) {
			n++
		}
	}
	return n
}

// line returns line i without its newline.
func (t *text) line(i int) string { return t.src[t.starts[i] : t.starts[i+1]-1] }

// join returns lines [from, to) joined with newlines, as a substring of the
// document (no copy).
func (t *text) join(from, to int) string {
	if from >= to {
		return ""
	}
	return t.src[t.starts[from] : t.starts[to]-1]
}
