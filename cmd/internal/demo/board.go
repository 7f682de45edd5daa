package demo

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/protocol/gitsha"
)

// The board issue as the App keeps it (docs/board.md).
const (
	boardTitle = "aepgate board"
	boardLabel = "aepgate:board"
)

// BoardView is the owner's board issue as GitHub shows it at the end.
type BoardView struct {
	Number int      `json:"number"`
	Title  string   `json:"title"`
	URL    string   `json:"url"`
	Pinned bool     `json:"pinned"`
	Labels []string `json:"labels"`
	// Body is the issue's Markdown: the board between the App's markers.
	Body string `json:"body"`
}

// board reads the board issue: the oldest issue labelled aepgate:board
// and titled aepgate board; nil when there is none.
func (w *world) board() *BoardView {
	for _, v := range w.repo.IssuesLabelled(boardLabel) {
		if v.Title == boardTitle {
			return &BoardView{Number: v.Number, Title: v.Title, URL: v.URL, Pinned: v.Pinned,
				Labels: append([]string{}, v.Labels...), Body: v.Body}
		}
	}
	return nil
}

// boardProblem says how the board issue falls short of showing unit
// certified by the merge commit, or "" when it does not.
func boardProblem(b *BoardView, unit int, merge string) string {
	switch {
	case b == nil:
		return "no board issue (titled " + strconv.Quote(boardTitle) + ", labelled " + boardLabel + ")"
	case !b.Pinned:
		return fmt.Sprintf("board issue #%d is not pinned", b.Number)
	}
	story := fmt.Sprintf("[\\#%d](https://github.com/%s/issues/%d)", unit, repoName, unit)
	increments, certs, ok := strings.Cut(b.Body, "## Recent certificates")
	switch {
	case !hasLine(increments, "| "+story, "certified"):
		return fmt.Sprintf("board issue #%d does not show story #%d certified", b.Number, unit)
	case !ok || !hasLine(certs, "| "+story, "/commit/"+merge):
		return fmt.Sprintf("board issue #%d lists no certificate of story #%d at the merge commit", b.Number, unit)
	}
	return ""
}

// hasLine reports whether a line of s starts with prefix and contains part.
func hasLine(s, prefix, part string) bool {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, prefix) && strings.Contains(l, part) {
			return true
		}
	}
	return false
}

// keepsBoard waits for the board issue to show story #1 (the increment
// step makes the unit #1) certified by the merge commit: created,
// labelled, pinned and rewritten by the App's debounced board job
// (Options.BoardDelay after the evaluations).
func (st *story) keepsBoard() beat {
	const unit = 1
	var b *BoardView
	return beat{title: fmt.Sprintf("the App keeps the owner's board: issue `%s`, pinned, shows story #%d certified", boardTitle, unit),
		until: func() bool {
			b = st.w.board()
			return boardProblem(b, unit, st.merge) == ""
		},
		what: fmt.Sprintf("the board issue pinned and showing story #%d certified", unit),
		titled: func() string {
			return fmt.Sprintf("the App keeps the owner's board: issue #%d `%s`, pinned, shows story #%d certified", b.Number, b.Title, unit)
		},
		detail: func() (string, error) {
			return fmt.Sprintf("%s, labelled %s, pinned\nincrement M1: story #%d ✅ certified; recent certificates: #%d, merge commit %s",
				b.URL, strings.Join(b.Labels, ", "), unit, unit, gitsha.Short(st.merge)), nil
		}}
}
