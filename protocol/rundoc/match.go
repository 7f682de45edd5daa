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
