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
// small regexp that usually starts with a literal, so a scan looks for that
// literal with a substring search and runs the regexp only where the literal
// starts a word: the same answer as the one large pattern, many times
// faster. Every alternative consumes a character before any ⟨ inside it, so
// matching a suffix of the text never sees a false start of text.
type alternatives struct {
	compiled func() []compiledAlt
}

type compiledAlt struct {
	re        *regexp.Regexp
	prefix    string
	wordStart bool
}

// newAlternatives compiles alts on first use.
func newAlternatives(alts []alt) alternatives {
	return alternatives{compiled: sync.OnceValue(func() []compiledAlt {
		out := make([]compiledAlt, len(alts))
		for i, a := range alts {
			re := rundoc.Compile(a.pattern)
			prefix, _ := re.LiteralPrefix()
			out[i] = compiledAlt{re: re, prefix: prefix, wordStart: a.wordStart}
		}
		return out
	})}
}

// match reports whether any alternative matches s.
func (a alternatives) match(s string) bool {
	for _, c := range a.compiled() {
		if c.match(s) {
			return true
		}
	}
	return false
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
