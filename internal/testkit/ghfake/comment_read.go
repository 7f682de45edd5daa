package ghfake

import "time"

// CommentView is an issue or pull request comment as a person reads it on
// GitHub: for scenarios (and aepgate-demo) that look at what an App
// answered without spending API calls the request log would count.
type CommentView struct {
	ID      int64
	Author  string
	Body    string
	Created time.Time
	// Edited is when the body was last edited; zero when never.
	Edited time.Time
	// Reactions are the reactions' contents ("+1", "-1", …), oldest first.
	Reactions []string
}

// Comments returns the issue's (or pull request's) comments, oldest first.
func (i *Issue) Comments() []CommentView {
	i.r.f.mu.Lock()
	defer i.r.f.mu.Unlock()
	var out []CommentView
	for _, c := range i.r.s.issue(i.n).comments {
		out = append(out, commentView(c))
	}
	return out
}

// CommentByID returns comment id of any issue or pull request of the
// repository, and whether it exists.
func (r *Repo) CommentByID(id int64) (CommentView, bool) {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	_, c := r.s.comment(id)
	if c == nil {
		return CommentView{}, false
	}
	return commentView(c), true
}

// commentView copies c; callers hold mu.
func commentView(c *comment) CommentView {
	v := CommentView{ID: c.id, Author: c.author.login, Body: c.body, Created: c.created, Edited: c.edited}
	for _, r := range c.reactions {
		v.Reactions = append(v.Reactions, r.content)
	}
	return v
}
