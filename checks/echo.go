package checks

import (
	"strconv"
	"strings"
)

// Replies echo what someone wrote: the command as written, gate ids and
// choices, and reasons that quote them. Reasons (protocol/gatelog,
// protocol/gate, protocol/command) quote every piece of a request with %q;
// echoReason shows each such quotation as a code span, so an echoed
// "@victim" mentions nobody and Markdown or HTML in it stays text.

// echoReason renders a refusal reason on one line: each Go-quoted string
// in it becomes span(the text it quotes), the rest has its HTML escaped
// (escapeHTML). A quote that does not read as a Go string stays text.
func echoReason(reason string, span func(string) string) string {
	reason = oneLine(reason, MaxSummaryBytes)
	var b strings.Builder
	for reason != "" {
		i := strings.IndexByte(reason, '"')
		if i < 0 {
			break
		}
		n := quotedLen(reason[i:])
		text, err := strconv.Unquote(reason[i : i+n])
		if n == 0 || err != nil {
			b.WriteString(escapeHTML(reason[:i+1]))
			reason = reason[i+1:]
			continue
		}
		b.WriteString(escapeHTML(reason[:i]) + span(text))
		reason = reason[i+n:]
	}
	b.WriteString(escapeHTML(reason))
	return b.String()
}

// quotedLen is the length of the double-quoted Go string s starts with
// (backslash escapes skipped), 0 when it is not closed.
func quotedLen(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return 0
}
