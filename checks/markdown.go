package checks

import (
	"fmt"
	"strings"
)

// table renders a Markdown table; cells are escaped so that a pipe or a
// newline in a message cannot break the layout.
func table(b *strings.Builder, header []string, rows [][]string) {
	b.WriteString("| " + strings.Join(header, " | ") + " |\n")
	b.WriteString("|" + strings.Repeat(" --- |", len(header)) + "\n")
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = cell(c)
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
}

// cell escapes text for a table cell: pipes escaped, line breaks turned to
// <br>, empty cells shown as a dash.
func cell(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return "–"
	}
	s = strings.ReplaceAll(s, "\\", "\\\\")
	s = strings.ReplaceAll(s, "|", "\\|")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\n", "<br>")
}

// code renders s as one inline code span, inert whatever s holds: no
// mention, link, emphasis or HTML inside it is live (CommonMark 0.31.2
// §6.1). Line breaks become spaces, since a code span cannot hold a blank
// line and block structure (a quote, a heading) is read before it; the
// fence is one backtick longer than the longest run of backticks in s; a
// space pads both sides when s starts or ends with a backtick or a space,
// because one is stripped from each side of such content.
func code(s string) string {
	s = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ").Replace(s)
	if s == "" {
		return ""
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	first, last := s[0], s[len(s)-1]
	if strings.Trim(s, " ") != "" && (first == '`' || first == ' ' || last == '`' || last == ' ') {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	longest, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] != c {
			n = 0
			continue
		}
		n++
		longest = max(longest, n)
	}
	return longest
}

// fenced writes s as a fenced code block with a fence longer than any run of
// backticks inside s.
func fenced(b *strings.Builder, info, s string) {
	fence := "```"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	b.WriteString(fence + info + "\n" + s)
	if !strings.HasSuffix(s, "\n") {
		b.WriteString("\n")
	}
	b.WriteString(fence + "\n")
}

// plural writes n with the singular or plural noun.
func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// bar draws a progress bar of width cells for a fraction in [0, 1].
func bar(frac float64, width int) string {
	frac = max(0, min(1, frac))
	full := int(frac*float64(width) + 0.5)
	return strings.Repeat("█", full) + strings.Repeat("░", width-full)
}
