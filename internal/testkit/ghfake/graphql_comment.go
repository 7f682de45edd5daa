package ghfake

import "time"

// commentRes is an IssueComment.
type commentRes struct {
	s *repoState
	i *issue
	c *comment
}

func (r *commentRes) typeName() string { return "IssueComment" }

func (r *commentRes) field(x *gqlExec, name string, args map[string]any) (any, error) {
	c := r.c
	switch name {
	case "id":
		return nodeID("IssueComment", c.id), nil
	case "databaseId":
		return c.id, nil
	case "body":
		return c.body, nil
	case "author":
		return actor(x.c.f, c.author), nil
	case "authorAssociation":
		return x.c.f.association(r.s, c.author), nil
	case "createdAt":
		return ts(c.created), nil
	case "updatedAt":
		return ts(c.updated), nil
	case "lastEditedAt":
		return ts(c.edited), nil
	case "editor":
		// Comment.editor: the actor who last edited the comment.
		if c.editor == nil {
			return nil, nil
		}
		return actor(x.c.f, c.editor), nil
	case "url":
		return r.s.commentURL(c), nil
	case "reactions":
		return reactionConn(x.c.f, c.reactions, args)
	}
	return nil, unknownField("IssueComment", name)
}

// reviewRes is a PullRequestReview.
type reviewRes struct {
	s *repoState
	i *issue
	r *review
}

func (r *reviewRes) typeName() string { return "PullRequestReview" }

func (r *reviewRes) field(x *gqlExec, name string, args map[string]any) (any, error) {
	rv := r.r
	switch name {
	case "id":
		return nodeID("PullRequestReview", rv.id), nil
	case "databaseId":
		return rv.id, nil
	case "body":
		return rv.body, nil
	case "state":
		return rv.state, nil
	case "author":
		return actor(x.c.f, rv.user), nil
	case "authorAssociation":
		return x.c.f.association(r.s, rv.user), nil
	case "createdAt":
		return ts(rv.created), nil
	case "submittedAt":
		return ts(rv.submitted), nil
	case "updatedAt":
		return ts(latest(rv.created, rv.submitted, rv.edited)), nil
	case "lastEditedAt":
		return ts(rv.edited), nil
	case "commit":
		if c := r.s.git.commits[rv.commitID]; c != nil {
			return &commitRes{s: r.s, c: c}, nil
		}
		return nil, nil
	case "url":
		return "https://github.com/" + r.s.fullName + "/pull/" + itoa(int64(r.i.number)) + "#pullrequestreview-" + itoa(rv.id), nil
	case "comments":
		var items []any
		for _, c := range rv.comments {
			items = append(items, mapRes{"PullRequestReviewComment", map[string]any{"id": nodeID("PullRequestReviewComment", c.id), "databaseId": c.id,
				"body": c.body, "path": c.path, "createdAt": ts(c.created), "author": actor(x.c.f, rv.user),
				"url": "https://github.com/" + r.s.fullName + "/pull/" + itoa(int64(r.i.number)) + "#discussion_r" + itoa(c.id)}})
		}
		return newConn("PullRequestReviewCommentConnection", "comments", items, args)
	}
	return nil, unknownField("PullRequestReview", name)
}

// labelRes is a Label.
type labelRes struct{ l *label }

func (r labelRes) typeName() string { return "Label" }

func (r labelRes) field(_ *gqlExec, name string, _ map[string]any) (any, error) {
	switch name {
	case "name":
		return r.l.name, nil
	case "color":
		return r.l.color, nil
	case "description":
		return nilIfEmpty(r.l.description), nil
	case "id":
		return nodeID("Label", r.l.id), nil
	}
	return nil, unknownField("Label", name)
}

// reactionEnum maps REST reaction contents to GraphQL's ReactionContent.
var reactionEnum = map[string]string{"+1": "THUMBS_UP", "-1": "THUMBS_DOWN", "laugh": "LAUGH", "confused": "CONFUSED",
	"heart": "HEART", "hooray": "HOORAY", "rocket": "ROCKET", "eyes": "EYES"}

// reactionConn serves reactions(first, content) as a ReactionConnection.
func reactionConn(f *Fake, rs []*reaction, args map[string]any) (any, error) {
	want, _ := args["content"].(string)
	var items []any
	for _, r := range rs {
		if want == "" || reactionEnum[r.content] == want {
			items = append(items, mapRes{"Reaction", map[string]any{"content": reactionEnum[r.content],
				"user": actor(f, r.user), "createdAt": ts(r.created), "databaseId": r.id, "id": nodeID("Reaction", r.id)}})
		}
	}
	return newConn("ReactionConnection", "reactions", items, args)
}

// latest is the newest of times (zero when all are zero).
func latest(times ...time.Time) time.Time {
	var out time.Time
	for _, t := range times {
		if t.After(out) {
			out = t
		}
	}
	return out
}
