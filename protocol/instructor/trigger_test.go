package instructor

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCommands(t *testing.T) {
	codex := []string{"@codex", "/codex"}
	tests := []struct {
		name  string
		body  string
		words []string
		want  bool
	}{
		{"mention", "@claude fix the failing test", []string{"@claude"}, true},
		{"mid sentence", "Thanks! @Claude, address that feedback.", []string{"@claude"}, true},
		{"slash command", "/codex address that feedback", codex, true},
		{"at end", "over to you @codex", codex, true},
		{"in parentheses", "(@copilot)", []string{"@copilot"}, true},
		{"quoted", "> @claude do it\nagreed", []string{"@claude"}, true},
		{"longer login", "@claudette look", []string{"@claude"}, false},
		{"email", "mail me@claude.ai", []string{"@claude"}, false},
		{"domain", "see @claude.ai", []string{"@claude"}, false},
		{"end of sentence", "Thanks @claude.", []string{"@claude"}, true},
		{"full stop then text", "Ask @codex. Then merge.", codex, true},
		{"ellipsis", "@claude...", []string{"@claude"}, true},
		{"path", "see tools/codex for details", codex, false},
		{"url", "https://example.com/codex", codex, false},
		{"inline code", "run `@claude fix` to ask", []string{"@claude"}, false},
		{"double backtick span", "``a ` @claude``", []string{"@claude"}, false},
		{"unclosed backtick", "`@claude fix", []string{"@claude"}, true},
		{"fenced", "```\n@claude fix\n```\nno", []string{"@claude"}, false},
		{"tilde fence", "~~~md\n/codex go\n~~~", codex, false},
		{"after the fence", "```\nx\n```\n@claude now", []string{"@claude"}, true},
		{"unclosed fence", "```\n@claude", []string{"@claude"}, false},
		{"no words", "@claude", nil, false},
		{"empty word", "@claude", []string{"  "}, false},
		{"unicode neighbour", "é@claude", []string{"@claude"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Commands(tt.body, tt.words); got != tt.want {
				t.Errorf("Commands(%q, %q) = %v, want %v", tt.body, tt.words, got, tt.want)
			}
		})
	}
}

func TestTriggersFor(t *testing.T) {
	configured := []Trigger{{Agent: "Claude[bot]", Words: []string{"@helper"}, Labels: []string{"ai"}}}
	got := TriggersFor([]string{"claude[bot]", "copilot-swe-agent[bot]", "agent-runner"}, configured)
	want := []Trigger{
		{Agent: "claude[bot]", Words: []string{"@helper"}, Labels: []string{"ai"}},
		{Agent: "copilot-swe-agent[bot]", Words: []string{"@copilot"}},
		{Agent: "agent-runner"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("TriggersFor (-want +got):\n%s", diff)
	}
}

// FuzzCommands feeds outside comment bodies: Commands never panics, finds
// a word standing alone on its own line, and never finds one inside a
// fenced block.
func FuzzCommands(f *testing.F) {
	f.Add("@claude fix it", "@claude")
	f.Add("```\n/codex\n```", "/codex")
	f.Add("`` ` ``@x`", "@x")
	f.Fuzz(func(t *testing.T, body, word string) {
		Commands(body, []string{word})
		w := strings.TrimSpace(word)
		if w == "" || strings.ContainsAny(w, "`~\n\r") || wordByte(w[0]) && w[0] != '@' && w[0] != '/' {
			return
		}
		if !Commands(body+"\n\n"+w+"\n", []string{word}) && !strings.Contains(body, "```") && !strings.Contains(body, "~~~") {
			t.Fatalf("%q alone on a line is no command after %q", w, body)
		}
		if !strings.Contains(body, "```") && Commands("```\n"+body+"\n```", []string{word}) {
			t.Fatalf("%q found inside a fence around %q", w, body)
		}
	})
}
