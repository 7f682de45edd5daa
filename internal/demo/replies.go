package demo

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/google/go-github/v62/github"
)

// reader reads what a person sees on GitHub (reactions, the App's
// replies) with a user token, so the App's own API calls stay countable.
func (w *world) reader() *github.Client { return w.f.Client(w.f.UserToken(owner)) }

// reactions are the reactions on comment id ("+1", "-1", …); a read that
// fails (the outage scenario injects failures) reads as none yet.
func (w *world) reactions(id int64) []string {
	rs, _, err := w.reader().Reactions.ListIssueCommentReactions(context.Background(), "acme", "widgets", id, nil)
	if err != nil {
		return nil
	}
	var out []string
	for _, r := range rs {
		out = append(out, r.GetContent())
	}
	return out
}

// reacted holds once comment id carries the reaction want.
func (w *world) reacted(id int64, want string) func() bool {
	return func() bool {
		for _, r := range w.reactions(id) {
			if r == want {
				return true
			}
		}
		return false
	}
}

// replyPrefix starts the App's reply to comment id.
func replyPrefix(id int64) string { return "<!-- aepgate:reply:" + strconv.FormatInt(id, 10) + " -->" }

// reply is the App's reply on issue n to comment id, without its marker.
func (w *world) reply(n int, id int64) (string, error) {
	opt := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}
	cs, _, err := w.reader().Issues.ListComments(context.Background(), "acme", "widgets", n, opt)
	if err != nil {
		return "", fmt.Errorf("read the replies on #%d: %w", n, err)
	}
	for _, c := range cs {
		if body, ok := strings.CutPrefix(c.GetBody(), replyPrefix(id)); ok {
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
		opt := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}
		cs, _, err := w.reader().Issues.ListComments(context.Background(), "acme", "widgets", n, opt)
		if err != nil {
			out = append(out, fmt.Sprintf("read the comments on #%d: %v", n, err))
			continue
		}
		seen := map[string]int{}
		for _, c := range cs {
			if marker, _, ok := strings.Cut(c.GetBody(), " -->"); ok && strings.HasPrefix(marker, "<!-- aepgate:reply:") {
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
