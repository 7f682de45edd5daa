package checks

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/gitsha"
)

// The board issue: one per repository, found by its label, kept by the App
// between its markers (docs/board.md). Text a person adds outside the
// markers is kept on every rewrite.
const (
	BoardTitle = "aepgate board"
	BoardLabel = "aepgate:board"
	BoardBegin = "<!-- aepgate:board:begin -->"
	BoardEnd   = "<!-- aepgate:board:end -->"
	// boardHashPrefix starts the hash marker, the line after BoardBegin.
	boardHashPrefix = "<!-- aepgate:board:sha256:"
)

// BoardRegion renders b as the board issue's marked region: BoardBegin,
// the hash marker, the content and BoardEnd, each marker on a line of its
// own. The hash is the SHA-256 of the content, which holds no time that
// changes from one run to the next, so an unchanged board renders the
// same region.
func BoardRegion(b boardview.Board) string {
	return boardRegion(b, boardEscapes{text: inline, node: boardNodeLabel})
}

// boardEscapes are the escapers of text from GitHub: text for Markdown,
// node for Mermaid labels. Tests pass others to watch the board break
// without them.
type boardEscapes struct{ text, node func(string) string }

func boardRegion(b boardview.Board, esc boardEscapes) string {
	content := boardContent(b, esc)
	sum := sha256.Sum256([]byte(content))
	return BoardBegin + "\n" + boardHashPrefix + hex.EncodeToString(sum[:]) + " -->\n" + content + BoardEnd + "\n"
}

// BoardIssueBody is the body of a new board issue: a line for people, then
// the region.
func BoardIssueBody(region string) string {
	return "_Kept by aepgate from what GitHub holds. Write your own notes above or below the board: the App rewrites only what lies between its markers._\n\n" + region
}

// boardContent is the region's Markdown between the hash marker and
// BoardEnd.
func boardContent(b boardview.Board, esc boardEscapes) string {
	var sb strings.Builder
	w := boardWriter{b: &sb, repoURL: b.URL, boardEscapes: esc}
	w.inbox(b.Inbox)
	sb.WriteString("\n## Increments\n")
	if len(b.Increments) == 0 {
		sb.WriteString("\nNo milestones yet: an increment is a milestone, its stories are its issues.\n")
	}
	for _, inc := range b.Increments {
		w.increment(inc)
	}
	w.certificates(b.Certificates)
	return sb.String()
}

// boardWriter writes the board's sections.
type boardWriter struct {
	b       *strings.Builder
	repoURL string
	boardEscapes
}

// row writes one table row of cells already escaped.
func (w boardWriter) row(cells ...string) {
	for i, c := range cells {
		if c == "" {
			cells[i] = "–"
		}
	}
	w.b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
}

// header writes a table's header row and separator.
func (w boardWriter) header(names ...string) {
	w.b.WriteString("\n| " + strings.Join(names, " | ") + " |\n|" + strings.Repeat(" --- |", len(names)) + "\n")
}

func (w boardWriter) inbox(items []boardview.InboxItem) {
	w.b.WriteString("## Owner inbox\n")
	if len(items) == 0 {
		w.b.WriteString("\nNothing waits for the owner.\n")
		return
	}
	w.header("since", "what", "about", "question", "choices", "reply")
	for _, it := range items {
		choices := make([]string, len(it.Choices))
		for i, c := range it.Choices {
			choices[i] = boardCode(c)
		}
		w.row(it.Since.UTC().Format("2006-01-02 15:04 UTC"), boardLink(kindText(it.Kind), it.URL), w.text(it.Subject),
			w.text(it.Question), strings.Join(choices, ", "), boardCode(it.Reply))
	}
}

// kindText names an inbox item's kind.
func kindText(kind string) string {
	switch kind {
	case "gate":
		return "🚦 gate"
	case "hold":
		return "⏸️ HOLD"
	case "stall":
		return "🛑 stalled"
	case "tampering":
		return "⚠️ tampering"
	case "closure":
		return "🔓 closed without evidence"
	case "needs-review":
		return "👀 needs-review: waiting for the owner's closure"
	case "held-work":
		return "✋ work under HOLD"
	case "increment":
		return "🏁 milestone closed early"
	}
	return inline(kind)
}

// boardCode is a code span for a table cell: the text on one line, with
// pipes (which end a cell even inside a code span) shown as ¦.
func boardCode(s string) string {
	s = strings.ReplaceAll(oneLine(s, maxBoardText), "|", "¦")
	return code(s)
}

func (w boardWriter) certificates(cs []boardview.Certificate) {
	w.b.WriteString("\n## Recent certificates\n")
	if len(cs) == 0 {
		w.b.WriteString("\nNo completion certificate yet.\n")
		return
	}
	w.header("work unit", "pull request", "merge commit", "certified")
	for _, c := range cs {
		w.row(boardLink(fmt.Sprintf("\\#%d", c.Unit), w.repoURL+fmt.Sprintf("/issues/%d", c.Unit)),
			boardLink(fmt.Sprintf("\\#%d", c.PR), w.repoURL+fmt.Sprintf("/pull/%d", c.PR)),
			boardLink(boardCode(gitsha.Short(c.SHA)), c.URL), c.At.UTC().Format("2006-01-02 15:04 UTC"))
	}
}
