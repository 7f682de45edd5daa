package rundoc

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Word-level patterns matched by hand, each exactly as the regular
// expression in its comment (FuzzLineMatchers holds them to it): phase
// headings and prefixes, gate IDs and words, placeholders. (?i) folds as
// RE2 does.

// phaseHeading matches `(?i)^#\s+phase\s+([0-9]+)(?:\s*[—–-]\s*(.*))?$` and
// returns the digits and the title ("" when there is none).
func phaseHeading(line string) (num, title string, ok bool) {
	rest, ok := strings.CutPrefix(line, "#")
	if !ok {
		return "", "", false
	}
	s := skipSpace(rest)
	if len(s) == len(rest) {
		return "", "", false
	}
	s, ok = cutFold(s, "phase")
	if !ok {
		return "", "", false
	}
	rest = s
	if s = skipSpace(rest); len(s) == len(rest) {
		return "", "", false
	}
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n == 0 {
		return "", "", false
	}
	num, s = s[:n], s[n:]
	if s == "" {
		return num, "", true
	}
	s = skipSpace(s)
	for _, dash := range [...]string{"—", "–", "-"} {
		if after, ok := strings.CutPrefix(s, dash); ok {
			return num, skipSpace(after), true
		}
	}
	return "", "", false
}

// cutFold removes word (lowercase ASCII letters) from the start of s,
// matching case-insensitively as RE2's (?i) does: 's' also matches 'ſ'
// (U+017F) and 'k' the Kelvin sign (U+212A).
func cutFold(s, word string) (string, bool) {
	for i := 0; i < len(word); i++ {
		w := word[i]
		switch {
		case len(s) > 0 && (s[0] == w || s[0] == w-'a'+'A'):
			s = s[1:]
		case w == 's' && strings.HasPrefix(s, "ſ"):
			s = s[len("ſ"):]
		case w == 'k' && strings.HasPrefix(s, "\u212a"):
			s = s[len("\u212a"):]
		default:
			return s, false
		}
	}
	return s, true
}

// IsWordRune reports whether r is a word character in Python's Unicode
// sense (\w): a letter, a number or '_'.
func IsWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_'
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r)
}

// hasGateWord matches `(?i)⟨gates?⟩`: "gate" or "gates" as a whole word.
func hasGateWord(s string) bool {
	prevWord := false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !prevWord && (r == 'g' || r == 'G') {
			if rest, ok := cutFold(s[i:], "gate"); ok {
				if after, ok := cutFold(rest, "s"); ok {
					rest = after
				}
				if next, _ := utf8.DecodeRuneInString(rest); rest == "" || !IsWordRune(next) {
					return true
				}
			}
		}
		prevWord = IsWordRune(r)
		i += size
	}
	return false
}

// phasePrefix matches `^[Pp]([0-9]+)-` and returns the digits.
func phasePrefix(id string) (string, bool) {
	if len(id) < 3 || id[0] != 'P' && id[0] != 'p' {
		return "", false
	}
	n := 1
	for n < len(id) && id[n] >= '0' && id[n] <= '9' {
		n++
	}
	if n == 1 || n == len(id) || id[n] != '-' {
		return "", false
	}
	return id[1:n], true
}

// isGateID matches `(?i)(?:-G[0-9]+$|^G[0-9]+$)`.
func isGateID(id string) bool {
	k := len(id)
	for k > 0 && id[k-1] >= '0' && id[k-1] <= '9' {
		k--
	}
	if k == len(id) || k == 0 || id[k-1] != 'G' && id[k-1] != 'g' {
		return false
	}
	return k == 1 || id[k-2] == '-'
}

// nextPlaceholder returns the bounds of the first match of `<[^>\n]*>` in s.
func nextPlaceholder(s string) (start, end int, ok bool) {
	for off := 0; ; {
		i := strings.IndexByte(s[off:], '<')
		if i < 0 {
			return 0, 0, false
		}
		i += off
		j := strings.IndexAny(s[i+1:], ">\n")
		if j >= 0 && s[i+1+j] == '>' {
			return i, i + j + 2, true
		}
		off = i + 1
	}
}
