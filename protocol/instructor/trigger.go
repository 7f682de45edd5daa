package instructor

import (
	"strings"

	"github.com/aepgate/aepgate/protocol/login"
)

// Trigger is how one listed agent is asked for work besides an
// assignment: the words of a comment, review or review comment that
// command it (an "@" mention or a "/" command) and the labels that start
// it.
type Trigger struct {
	Agent  string
	Words  []string
	Labels []string
}

// DefaultTriggers are the words known to start the common agents, by the
// logins those agents act as (config key agents names the logins; these
// apply to a listed login without triggers of its own): Copilot's coding
// agent @copilot, Claude @claude, Codex @codex and /codex, Cursor @cursor;
// Jules and Claude are also started by a label of their name.
var DefaultTriggers = []Trigger{
	{Agent: "Copilot", Words: []string{"@copilot"}},
	{Agent: "copilot-swe-agent[bot]", Words: []string{"@copilot"}},
	{Agent: "claude[bot]", Words: []string{"@claude"}, Labels: []string{"claude"}},
	{Agent: "chatgpt-codex-connector[bot]", Words: []string{"@codex", "/codex"}},
	{Agent: "cursor[bot]", Words: []string{"@cursor"}},
	{Agent: "google-labs-jules[bot]", Words: []string{"@jules"}, Labels: []string{"jules"}},
}

// TriggersFor are the triggers of each of agents: the one configured for
// it in configured, else its default (DefaultTriggers), else none (it is
// then asked only by assignment). Logins compare as GitHub compares them.
func TriggersFor(agents []string, configured []Trigger) []Trigger {
	out := make([]Trigger, 0, len(agents))
	for _, a := range agents {
		t, ok := triggerOf(configured, a)
		if !ok {
			t, _ = triggerOf(DefaultTriggers, a)
		}
		t.Agent = a
		out = append(out, t)
	}
	return out
}

func triggerOf(list []Trigger, agent string) (Trigger, bool) {
	for _, t := range list {
		if login.Equal(t.Agent, agent) {
			return t, true
		}
	}
	return Trigger{}, false
}

// Commands reports whether body (a comment, review or review comment, as
// written: Markdown) commands an agent by one of words: a word starts the
// text or follows a character that cannot end a login or a path ("@" and
// "/" words alike), and ends the text or precedes one that cannot continue
// it. Words compare without regard to case, as GitHub's mentions do. Text
// in code (a fenced block or an inline code span) mentions nobody, as on
// GitHub; a quoted line counts (its author repeats the command).
func Commands(body string, words []string) bool {
	text := strings.ToLower(stripCode(body))
	for _, w := range words {
		w = strings.ToLower(strings.TrimSpace(w))
		if w == "" {
			continue
		}
		for i := 0; i <= len(text)-len(w); {
			j := strings.Index(text[i:], w)
			if j < 0 {
				break
			}
			at := i + j
			if (at == 0 || !wordByte(text[at-1])) && endsWord(text, at+len(w)) {
				return true
			}
			i = at + 1
		}
	}
	return false
}

// endsWord reports whether a word ends at i of text: the text ends there,
// or a byte that cannot continue it follows, or a full stop ending the
// sentence ("thanks @claude.") does, not one inside a name ("@claude.ai").
func endsWord(text string, i int) bool {
	switch {
	case i == len(text) || !wordByte(text[i]):
		return true
	case text[i] == '.':
		return i+1 == len(text) || !wordByte(text[i+1]) || text[i+1] == '.'
	}
	return false
}

// wordByte reports whether b can be part of a login, a path or an address
// around a trigger word (so "me@claude.ai", "x/codex" and "@claudette" are
// no commands). Any byte of a multi-byte character counts as one.
func wordByte(b byte) bool {
	switch {
	case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z', b >= '0' && b <= '9':
		return true
	case b == '-', b == '_', b == '@', b == '/', b == '.', b >= 0x80:
		return true
	}
	return false
}

// stripCode is body without its fenced code blocks (``` or ~~~ lines
// open and close one; an unclosed one runs to the end) and inline code
// spans (a run of backticks to the next equal run on the line).
func stripCode(body string) string {
	var b strings.Builder
	fence := ""
	for _, line := range strings.Split(body, "\n") {
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			b.WriteByte('\n')
			continue
		}
		if f := fenceOf(trimmed); f != "" {
			fence = f
			b.WriteByte('\n')
			continue
		}
		b.WriteString(stripSpans(line))
		b.WriteByte('\n')
	}
	return b.String()
}

func fenceOf(line string) string {
	for _, c := range []string{"```", "~~~"} {
		if strings.HasPrefix(line, c) {
			n := len(line) - len(strings.TrimLeft(line, c[:1]))
			return strings.Repeat(c[:1], n)
		}
	}
	return ""
}

// stripSpans replaces the inline code spans of line with a space; a
// backtick run with no closing run of the same length is kept as text.
func stripSpans(line string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(line, '`')
		if i < 0 {
			b.WriteString(line)
			return b.String()
		}
		n := len(line[i:]) - len(strings.TrimLeft(line[i:], "`"))
		run := line[i : i+n]
		end := closing(line[i+n:], run)
		if end < 0 {
			b.WriteString(line[:i+n])
			line = line[i+n:]
			continue
		}
		b.WriteString(line[:i])
		b.WriteByte(' ')
		line = line[i+n+end+n:]
	}
}

// closing is the index in s of the next backtick run exactly as long as
// run, or -1.
func closing(s, run string) int {
	for off := 0; off < len(s); {
		j := strings.Index(s[off:], run)
		if j < 0 {
			return -1
		}
		at := off + j
		after := at + len(run)
		if after < len(s) && s[after] == '`' {
			off = after + len(s[after:]) - len(strings.TrimLeft(s[after:], "`"))
			continue
		}
		return at
	}
	return -1
}
