package checks

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/gate"
	"github.com/aepgate/aepgate/protocol/gatelog"
)

// StatusMarker starts the one status comment the App keeps per thread, so
// that a later `status` edits it instead of adding another.
const StatusMarker = "<!-- aepgate:status -->"

// ReplyMarker starts the App's one reply to the comment or review itemID,
// so that a redelivered event finds the reply already there.
func ReplyMarker(itemID int64) string { return fmt.Sprintf("<!-- aepgate:reply:%d -->", itemID) }

// RefusalReply renders the App's reply to a comment whose commands or gate
// blocks were refused: for each, what was refused and why (which says what
// would be accepted), then the valid commands when one was malformed. No
// line of it is a command, and everything it echoes of the comment (its
// author, the command as written, what a reason quotes) is a code span.
func RefusalReply(itemID int64, author, prefix string, refused []gatelog.Outcome) string {
	return refusalReply(itemID, author, prefix, refused, code)
}

// refusalReply is RefusalReply with the code span given (tests pass
// another to show what the spans stop).
func refusalReply(itemID int64, author, prefix string, refused []gatelog.Outcome, span func(string) string) string {
	var b strings.Builder
	b.WriteString(ReplyMarker(itemID) + "\n")
	fmt.Fprintf(&b, "%s, aepgate did not act on %s in this comment:\n", span("@"+author), plural(len(refused), "request", "requests"))
	malformed := false
	for _, o := range refused {
		what := span(o.Command)
		if o.Line > 0 {
			what += fmt.Sprintf(" (line %d)", o.Line)
		}
		fmt.Fprintf(&b, "\n- %s: %s\n", what, echoReason(o.Reason, span))
		malformed = malformed || o.Action == ""
	}
	if malformed {
		b.WriteString("\nThe commands are:\n\n" + command.Usage(prefix))
	}
	return b.String()
}

// StatusComment renders the body of the status comment: whether anything
// blocks the merge, each blocker as the gates check shows it, and the gates
// already answered. What people wrote (logins, questions, which may quote
// a HOLD's reason) is shown in code spans.
func StatusComment(c GatesContext, st gate.State, blockers []gate.Blocker) string {
	return statusComment(c, st, blockers, code)
}

// statusComment is StatusComment with the code span given (tests pass
// another to show what the spans stop).
func statusComment(c GatesContext, st gate.State, blockers []gate.Blocker, span func(string) string) string {
	var b strings.Builder
	b.WriteString(StatusMarker + "\n")
	fmt.Fprintf(&b, "## aepgate status: %s\n\n", c.subject())
	w := gatesWriter{b: &b, c: c, span: span}
	if len(blockers) == 0 {
		fmt.Fprintf(&b, "Nothing blocks the merge of %s.\n", c.subject())
	} else {
		fmt.Fprintf(&b, "**%s.** Only %s can answer, each in a new comment or review of their own; an edited comment does not count.\n", gatesTitle(blockers), w.answerers(blockers))
		w.blockers(st, blockers)
	}
	w.answered(st)
	return b.String()
}

// escapeHTML escapes <, > and & outside code spans, so that a reason
// quoting what someone wrote cannot become HTML in the reply.
func escapeHTML(s string) string {
	var b strings.Builder
	inCode := false
	for _, r := range s {
		switch {
		case r == '`':
			inCode = !inCode
			b.WriteRune(r)
		case inCode:
			b.WriteRune(r)
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
