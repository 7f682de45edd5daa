package rundoc

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The line patterns of the run documents, matched by hand: each function
// accepts exactly what the regular expression in its comment accepts (a
// fuzz test holds them to it), at a fraction of the cost on a 100,000-task
// log. \s is Python's Unicode whitespace (IsSpace).

// guideHeading matches `^###\s+(ID)\s+[—–-]\s*(.*)$` and returns the ID and
// the rest of the line after the separator's whitespace.
func guideHeading(line string) (id, rest string, ok bool) {
	id, rest, ok = headingID(line)
	if !ok {
		return "", "", false
	}
	return id, skipSpace(rest), true
}

// logHeading matches `^###\s+(ID)\s+[—–-]\s+([A-Za-z_]+)\s*$`.
func logHeading(line string) (id, word string, ok bool) {
	id, rest, ok := headingID(line)
	if !ok {
		return "", "", false
	}
	after := skipSpace(rest)
	if len(after) == len(rest) {
		return "", "", false
	}
	n := 0
	for n < len(after) && isWordLetter(after[n]) {
		n++
	}
	if n == 0 || skipSpace(after[n:]) != "" {
		return "", "", false
	}
	return id, after[:n], true
}

// headingID matches `^###\s+(ID)\s+[—–-]` and returns the ID and the text
// after the separator.
func headingID(line string) (id, rest string, ok bool) {
	rest, ok = strings.CutPrefix(line, "###")
	if !ok {
		return "", "", false
	}
	s := skipSpace(rest)
	if len(s) == len(rest) {
		return "", "", false
	}
	n := idLen(s)
	if n == 0 {
		return "", "", false
	}
	id, rest = s[:n], s[n:]
	s = skipSpace(rest)
	if len(s) == len(rest) {
		return "", "", false
	}
	for _, dash := range [...]string{"—", "–", "-"} {
		if after, ok := strings.CutPrefix(s, dash); ok {
			return id, after, true
		}
	}
	return "", "", false
}

// isIDChar reports whether c is in IDChars.
func isIDChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}

// idLen is the length of the run of IDChars at the start of s.
func idLen(s string) int {
	n := 0
	for n < len(s) && isIDChar(s[n]) {
		n++
	}
	return n
}

func isWordLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }

// TrimLeftSpace returns s without its leading whitespace (Python's \s).
func TrimLeftSpace(s string) string { return skipSpace(s) }

// skipSpace returns s without its leading whitespace.
func skipSpace(s string) string {
	for len(s) > 0 {
		if c := s[0]; c < utf8.RuneSelf {
			if !IsSpace(rune(c)) {
				return s
			}
			s = s[1:]
			continue
		}
		r, size := utf8.DecodeRuneInString(s)
		if !IsSpace(r) {
			return s
		}
		s = s[size:]
	}
	return s
}

// isBodyEnd matches `^#{1,6}(?:\s|$)`: a Markdown heading line.
func isBodyEnd(line string) bool {
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(line) || len(skipSpace(line[n:])) < len(line)-n)
}

// boldField matches `^\*\*([^*\n]+?):\*\*(.*)$` and returns the label and
// the value; as `^\*\*[^*\n]+:\*\*` it is the test for a bold field.
func boldField(line string) (label, value string, ok bool) {
	s, ok := strings.CutPrefix(line, "**")
	if !ok {
		return "", "", false
	}
	n := strings.IndexAny(s, "*\n")
	if n < 2 || s[n-1] != ':' || s[n] != '*' || !strings.HasPrefix(s[n:], "**") {
		return "", "", false
	}
	if i := strings.IndexByte(s[n+2:], '\n'); i >= 0 {
		return "", "", false // (.*)$ cannot cross a newline
	}
	return s[:n-1], s[n+2:], true
}

// reportLabel is the label a Report reference follows.
const reportLabel = "**Report:**"

// appendReportIDs appends the IDs of every match of
// "\*\*Report:\*\*[ \t\p{Zs}]*`?(ID)`?" in line, leftmost first.
func appendReportIDs(ids []string, line string) []string {
	for {
		i := strings.Index(line, reportLabel)
		if i < 0 {
			return ids
		}
		s := line[i+len(reportLabel):]
		for len(s) > 0 {
			r, size := utf8.DecodeRuneInString(s)
			if r != '\t' && !unicode.Is(unicode.Zs, r) {
				break
			}
			s = s[size:]
		}
		s = strings.TrimPrefix(s, "`")
		n := idLen(s)
		if n == 0 {
			line = line[i+1:]
			continue
		}
		ids = append(ids, s[:n])
		line = strings.TrimPrefix(s[n:], "`")
	}
}

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

// isBoldField matches `^\*\*[^*\n]+:\*\*`: a line-start bold field such as
// "**Changed:**".
func isBoldField(line string) bool {
	s, ok := strings.CutPrefix(line, "**")
	if !ok {
		return false
	}
	n := strings.IndexAny(s, "*\n")
	return n >= 2 && s[n-1] == ':' && strings.HasPrefix(s[n:], "**")
}
