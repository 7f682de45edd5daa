package demo

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// The demo reads what a person sees on GitHub (reactions, the App's
// replies) through the simulated GitHub's scenario API, so none of it
// counts as an API call in the figures.

// reactions are the reactions on comment id ("+1", "-1", …).
func (w *world) reactions(id int64) []string {
	c, _ := w.repo.CommentByID(id)
	return c.Reactions
}

// reacted holds once comment id carries the reaction want.
func (w *world) reacted(id int64, want string) func() bool {
	return func() bool { return slices.Contains(w.reactions(id), want) }
}

// replyPrefix starts the App's reply to comment id.
func replyPrefix(id int64) string { return "<!-- aepgate:reply:" + strconv.FormatInt(id, 10) + " -->" }

// conversation is issue or pull request n's comments.
func (w *world) conversation(n int) []ghfake.CommentView {
	if is := w.repo.Issue(n); is != nil {
		return is.Comments()
	}
	return nil
}

// reply is the App's reply on issue n to comment id, without its marker.
func (w *world) reply(n int, id int64) (string, error) {
	for _, c := range w.conversation(n) {
		if body, ok := strings.CutPrefix(c.Body, replyPrefix(id)); ok {
			return "aepgate replied: " + strings.TrimSpace(body), nil
		}
	}
	return "", fmt.Errorf("no reply on #%d to comment %d", n, id)
}

// replied holds once the App replied on issue n to comment id.
func (w *world) replied(n int, id int64) func() bool {
	return func() bool { _, err := w.reply(n, id); return err == nil }
}

// duplicateReplies lists every comment the App answered more than once,
// over the issues and pull requests the story used.
func (w *world) duplicateReplies() []string {
	var out []string
	for _, n := range w.story.conversations() {
		seen := map[string]int{}
		for _, c := range w.conversation(n) {
			if marker, _, ok := strings.Cut(c.Body, " -->"); ok && strings.HasPrefix(marker, "<!-- aepgate:reply:") {
				seen[marker]++
			}
		}
		for marker, k := range seen {
			if k > 1 {
				out = append(out, fmt.Sprintf("duplicate write: #%d holds %d replies %s -->", n, k, marker))
			}
		}
	}
	return out
}
