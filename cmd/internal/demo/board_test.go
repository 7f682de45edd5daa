package demo

import (
	"strings"
	"testing"
)

// TestBoardProblem: the board step and the final state accept only a
// pinned board issue that shows the story certified and lists its
// certificate at the merge commit.
func TestBoardProblem(t *testing.T) {
	merge := strings.Repeat("ab", 20)
	story := "| [\\#1](https://github.com/acme/widgets/issues/1)"
	body := "## Increments\n\n" + story + " Export | ✅ certified | product · medium | – |\n\n## Recent certificates\n\n" +
		story + " | [\\#3](https://github.com/acme/widgets/pull/3) | [`abababababab`](https://github.com/acme/widgets/commit/" + merge + ") |\n"
	good := BoardView{Number: 4, Title: boardTitle, Pinned: true, Labels: []string{boardLabel}, Body: body}
	tests := []struct {
		name  string
		board func(b BoardView) *BoardView
		want  string
	}{
		{"certified", func(b BoardView) *BoardView { return &b }, ""},
		{"no board", func(BoardView) *BoardView { return nil }, "no board issue"},
		{"not pinned", func(b BoardView) *BoardView { b.Pinned = false; return &b }, "not pinned"},
		{"in review", func(b BoardView) *BoardView {
			b.Body = strings.Replace(b.Body, "✅ certified", "🟣 in review", 1)
			return &b
		}, "does not show story #1 certified"},
		{"no certificate listed", func(b BoardView) *BoardView {
			b.Body, _, _ = strings.Cut(b.Body, "## Recent certificates")
			return &b
		}, "lists no certificate"},
		{"another merge commit", func(b BoardView) *BoardView {
			b.Body = strings.ReplaceAll(b.Body, merge, strings.Repeat("cd", 20))
			return &b
		}, "lists no certificate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := boardProblem(tt.board(good), 1, merge)
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("boardProblem = %q, want %q", got, tt.want)
			}
		})
	}
}
