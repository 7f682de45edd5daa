package lint

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

// alt is one alternative of a pattern such as ⟨(?:A|B|…)⟩: its own pattern
// (A⟩) and whether a match must start a word (the leading ⟨).
type alt struct {
	pattern   string
	wordStart bool
}

// wordAlts returns the alternatives of ⟨(?:list…)suffix.
func wordAlts(suffix string, list ...string) []alt {
	out := make([]alt, len(list))
	for i, p := range list {
		out[i] = alt{pattern: `(?:` + p + `)` + suffix, wordStart: true}
	}
	return out
}

// negated returns the alternatives of (?:⟨(?:words…)|n['’]t)rest: a
// negation word, or the contraction n't, followed by rest.
func negated(rest string, words ...string) []alt {
	return append(wordAlts(rest, words...), alt{pattern: `n['’]t` + rest})
}

// alternatives matches the union of its alternatives. Each alternative is a
// small regexp that usually starts with a literal, so a scan visits each
// place a word starts, and runs only the alternatives whose literal starts
// there, anchored at that place: the same answer as the one large pattern,
// many times faster. Every alternative consumes a character before any ⟨
// inside it, so matching a suffix of the text never sees a false start of
// text.
type alternatives struct {
	compiled func() *altSet
}

// altSet is a compiled set of alternatives.
type altSet struct {
	// byFirst holds the alternatives that start a word with a literal, by
	// the literal's first byte.
	byFirst [256][]compiledAlt
	// rest are the others, each matched by a scan of its own.
	rest []compiledAlt
}

type compiledAlt struct {
	re *regexp.Regexp
	// anchored is re anchored at the start of the text, compiled the first
	// time text reaches it (prefix and needs found); nil for a literal.
	anchored  func() *regexp.Regexp
	prefix    string
	wordStart bool
	// needs is a word every match ends with (see neededWord), "" if none.
	needs string
	// wordEnd: a literal alternative (anchored is nil) must also end a word.
	wordEnd bool
}

// literalAlt reports whether a word-start alternative of wordAlts's form,
// (?:inner)suffix, is the literal prefix alone (inner is the prefix, or the
// prefix then \w*) and whether a match must also end a word there. Such an
// alternative needs no regexp: about half of them are, and compiling them
// was most of a small run's lint time. L\w*⟩ is L alone because \w* can
// always take the rest of the word; L⟩ is L at the end of a word.
func literalAlt(pattern, prefix string) (literal, wordEnd bool) {
	inner, ok := strings.CutPrefix(pattern, `(?:`+prefix)
	if !ok {
		return false, false
	}
	inner = strings.TrimPrefix(inner, `\w*`)
	switch inner {
	case `)`:
		return true, false
	case `)⟩`:
		return true, !strings.HasPrefix(pattern[len(`(?:`+prefix):], `\w*`)
	}
	return false, false
}

// neededWord returns the word an alternative such as `remov\w*[^\n]*?⟨nothing`
// ends with: the letters after a final `*?⟨`, outside any group, which every
// match holds after its prefix. It returns "" for other alternatives.
func neededWord(pattern string) string {
	i := strings.LastIndex(pattern, `*?⟨`)
	if i < 0 {
		return ""
	}
	w := pattern[i+len(`*?⟨`):]
	n := 0
	for n < len(w) && w[n] >= 'a' && w[n] <= 'z' {
		n++
	}
	if n == 0 || strings.ContainsAny(w[n:], "|?*{") || strings.Count(pattern[:i], "(") != strings.Count(pattern[:i], ")")+1 {
		return ""
	}
	return w[:n]
}

// newAlternatives builds the alternatives and compiles them on first use,
// each once: anchored when it starts a word with a literal, for a scan
// otherwise. Nothing of it runs while the package initialises.
func newAlternatives(build func() []alt) alternatives {
	return alternatives{compiled: sync.OnceValue(func() *altSet {
		set := new(altSet)
		for _, a := range build() {
			prefix := literalPrefix(strings.TrimPrefix(a.pattern, `(?:`))
			if !a.wordStart || prefix == "" {
				re := compileASCII(a.pattern)
				prefix, _ = re.LiteralPrefix()
				set.rest = append(set.rest, compiledAlt{re: re, prefix: prefix, wordStart: a.wordStart})
				continue
			}
			c := compiledAlt{prefix: prefix, wordStart: true, needs: neededWord(a.pattern)}
			if lit, end := literalAlt(a.pattern, prefix); lit {
				c.wordEnd = end
			} else {
				pattern := `^(?:` + a.pattern + `)`
				c.anchored = sync.OnceValue(func() *regexp.Regexp { return compileASCII(pattern) })
			}
			set.byFirst[prefix[0]] = append(set.byFirst[prefix[0]], c)
		}
		return set
	})}
}

// literalPrefix returns the letters, digits and slashes every match of
// pattern starts with (a character a quantifier makes optional is not one).
func literalPrefix(pattern string) string {
	n := 0
	for n < len(pattern) && (pattern[n] >= 'a' && pattern[n] <= 'z' || pattern[n] >= '0' && pattern[n] <= '9' || pattern[n] == '/') {
		n++
	}
	if n < len(pattern) && strings.IndexByte("?*{", pattern[n]) >= 0 {
		n--
	}
	return pattern[:max(n, 0)]
}

// match reports whether any alternative matches s (lowercased).
func (a alternatives) match(s string) bool {
	s = foldASCII(s)
	set := a.compiled()
	prevWord := false
	for p := 0; p < len(s); {
		r, size := rune(s[p]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[p:])
		}
		if !prevWord {
			for _, c := range set.byFirst[s[p]] {
				if c.matchAt(s, p) {
					return true
				}
			}
		}
		prevWord = rundoc.IsWordRune(r)
		p += size
	}
	for _, c := range set.rest {
		if c.match(s) {
			return true
		}
	}
	return false
}

// matchAt reports whether c, which starts a word with its prefix, matches
// folded text s at byte p.
func (c compiledAlt) matchAt(s string, p int) bool {
	if !strings.HasPrefix(s[p:], c.prefix) {
		return false
	}
	if c.anchored == nil {
		q := p + len(c.prefix)
		return !c.wordEnd || q == len(s) || !isASCIIWord(s[q])
	}
	return (c.needs == "" || strings.Contains(s[p+len(c.prefix):], c.needs)) && c.anchored().MatchString(s[p:])
}

// isASCIIWord reports whether b is in \w of the ASCII patterns, [0-9A-Za-z_].
func isASCIIWord(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '_'
}

func (c compiledAlt) match(s string) bool {
	for off := 0; off <= len(s); {
		i := strings.Index(s[off:], c.prefix)
		if i < 0 {
			return false
		}
		p := off + i
		if c.wordStart && !wordStartAt(s, p) {
			off = nextRune(s, p)
			continue
		}
		loc := c.re.FindStringIndex(s[p:])
		if loc == nil {
			return false // no match starts at p or later
		}
		q := p + loc[0]
		if !c.wordStart || wordStartAt(s, q) {
			return true
		}
		off = nextRune(s, q)
	}
	return false
}

// wordStartAt reports whether a word may start at byte p of s: p is the
// start of s or follows a character that is not a word character (⟨).
func wordStartAt(s string, p int) bool {
	if p == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(s[:p])
	return !rundoc.IsWordRune(r)
}

// nextRune returns the byte index after the character at p (p+1 at the end).
func nextRune(s string, p int) int {
	if p >= len(s) {
		return p + 1
	}
	_, size := utf8.DecodeRuneInString(s[p:])
	return p + size
}
