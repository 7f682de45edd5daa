package command

import "strings"

// dropIndent removes up to n leading spaces, as CommonMark does for the
// content of a fence indented n spaces.
func dropIndent(line string, n int) string {
	i := 0
	for i < n && i < len(line) && line[i] == ' ' {
		i++
	}
	return line[i:]
}

// isFence reports whether s (unindented) opens a fenced code block: three or
// more backticks or tildes; a backtick fence's info string has no backtick.
func isFence(s string) bool {
	if len(s) < 3 || (s[0] != '`' && s[0] != '~') {
		return false
	}
	n := fenceLen(s)
	return n >= 3 && !(s[0] == '`' && strings.Contains(s[n:], "`"))
}

func fenceLen(s string) int {
	n := 0
	for n < len(s) && s[n] == s[0] {
		n++
	}
	return n
}

// closesFence reports whether s (unindented) closes a fence of n ch's: at
// least n of them and nothing else but spaces.
func closesFence(s string, ch byte, n int) bool {
	k := 0
	for k < len(s) && s[k] == ch {
		k++
	}
	return k >= n && strings.TrimSpace(s[k:]) == ""
}

func infoWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return strings.ToLower(f[0])
	}
	return ""
}

// isListItem reports whether s (unindented) starts a list item: a bullet
// (-, + or *) or an ordinal (up to nine digits and . or )) followed by
// whitespace or the end of the line.
func isListItem(s string) bool {
	n := 0
	switch {
	case s[0] == '-' || s[0] == '+' || s[0] == '*':
		n = 1
	default:
		for n < len(s) && n < 10 && '0' <= s[n] && s[n] <= '9' {
			n++
		}
		if n == 0 || n > 9 || n == len(s) || (s[n] != '.' && s[n] != ')') {
			return false
		}
		n++
	}
	return n == len(s) || s[n] == ' ' || s[n] == '\t'
}

// isDelimiterRow reports whether s (unindented) may be a table's delimiter
// row: only pipes, colons, dashes and spaces, with a dash and a pipe or a
// colon. The line above it is then a table header, not prose.
func isDelimiterRow(s string) bool {
	if strings.Trim(s, "|:- \t") != "" || !strings.Contains(s, "-") {
		return false
	}
	return strings.ContainsAny(s, "|:")
}
