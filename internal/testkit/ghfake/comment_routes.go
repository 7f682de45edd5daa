package ghfake

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
)

func (f *Fake) commentRoutes() {
	f.handle("GET /repos/{owner}/{repo}/issues/{issue_number}/comments", read("issues"), func(c *call) (int, any) {
		is := c.issueParam()
		if is == nil {
			return notFound()
		}
		return http.StatusOK, c.page(c.commentsSince(is.comments))
	})
	f.handle("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", participate("issues"), func(c *call) (int, any) {
		is := c.issueParam()
		if is == nil {
			return notFound()
		}
		var req struct {
			Body string `json:"body"`
		}
		if err := c.decode(&req); err != nil {
			return badJSON(err)
		}
		if req.Body == "" {
			return invalid("IssueComment", "body", "missing_field", "")
		}
		var via *App
		if c.tok != nil && c.tok.kind != userToken {
			via = c.tok.app
		}
		return http.StatusCreated, c.f.commentJSON(c.repo, c.f.addCommentVia(c.repo, is, c.f.actor(c.tok), req.Body, via))
	})
	f.handle("GET /repos/{owner}/{repo}/issues/comments", read("issues"), func(c *call) (int, any) {
		var all []*comment
		for _, is := range c.repo.issues {
			all = append(all, is.comments...)
		}
		return http.StatusOK, c.page(c.commentsSince(all))
	})
	f.handle("GET /repos/{owner}/{repo}/issues/comments/{comment_id}", read("issues"), func(c *call) (int, any) {
		if _, cm := c.commentParam(); cm != nil {
			return http.StatusOK, c.f.commentJSON(c.repo, cm)
		}
		return notFound()
	})
	f.handle("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", write("issues"), func(c *call) (int, any) {
		_, cm := c.commentParam()
		if cm == nil {
			return notFound()
		}
		var req struct {
			Body string `json:"body"`
		}
		if err := c.decode(&req); err != nil {
			return badJSON(err)
		}
		c.f.editComment(c.repo, cm.id, c.f.actor(c.tok), req.Body)
		return http.StatusOK, c.f.commentJSON(c.repo, cm)
	})
	f.handle("DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}", write("issues"), func(c *call) (int, any) {
		is, cm := c.commentParam()
		if cm == nil {
			return notFound()
		}
		for k, x := range is.comments {
			if x == cm {
				is.comments = append(is.comments[:k], is.comments[k+1:]...)
				break
			}
		}
		c.f.emit(c.repo, "issue_comment", "deleted", c.f.actor(c.tok), obj{"issue": c.f.issueJSON(c.repo, is), "comment": c.f.commentJSON(c.repo, cm)})
		return http.StatusNoContent, nil
	})
	f.reactionRoutes()
}

// commentsSince applies ?since= (updated at or after) to comments.
func (c *call) commentsSince(cs []*comment) []any {
	var since time.Time
	if s := c.r.URL.Query().Get("since"); s != "" {
		since, _ = time.Parse(time.RFC3339, s)
	}
	out := []any{}
	for _, cm := range cs {
		if !cm.updated.Before(since) {
			out = append(out, c.f.commentJSON(c.repo, cm))
		}
	}
	return out
}

func (c *call) commentParam() (*issue, *comment) {
	id, _ := strconv.ParseInt(c.r.PathValue("comment_id"), 10, 64)
	return c.repo.comment(id)
}

func (f *Fake) reactionRoutes() {
	issueReactions := func(c *call) *[]*reaction {
		if is := c.issueParam(); is != nil {
			return &is.reactions
		}
		return nil
	}
	commentReactions := func(c *call) *[]*reaction {
		if _, cm := c.commentParam(); cm != nil {
			return &cm.reactions
		}
		return nil
	}
	for prefix, target := range map[string]func(*call) *[]*reaction{
		"/repos/{owner}/{repo}/issues/{issue_number}":        issueReactions,
		"/repos/{owner}/{repo}/issues/comments/{comment_id}": commentReactions,
	} {
		f.handle("GET "+prefix+"/reactions", read("issues"), func(c *call) (int, any) {
			rs := target(c)
			if rs == nil {
				return notFound()
			}
			out := []any{}
			for _, r := range *rs {
				if want := c.r.URL.Query().Get("content"); want == "" || want == r.content {
					out = append(out, c.f.reactionJSON(r))
				}
			}
			return http.StatusOK, c.page(out)
		})
		f.handle("POST "+prefix+"/reactions", write("issues"), func(c *call) (int, any) {
			return c.react(target(c))
		})
		f.handle("DELETE "+prefix+"/reactions/{reaction_id}", write("issues"), func(c *call) (int, any) {
			rs := target(c)
			id, _ := strconv.ParseInt(c.r.PathValue("reaction_id"), 10, 64)
			if rs == nil {
				return notFound()
			}
			for k, r := range *rs {
				if r.id == id {
					*rs = append((*rs)[:k], (*rs)[k+1:]...)
					return http.StatusNoContent, nil
				}
			}
			return notFound()
		})
	}
}

// react adds the caller's reaction, answering 200 with the existing one
// when the same user already reacted with the same content.
func (c *call) react(rs *[]*reaction) (int, any) {
	if rs == nil {
		return notFound()
	}
	var req struct {
		Content string `json:"content"`
	}
	if err := c.decode(&req); err != nil {
		return badJSON(err)
	}
	if !reactionContents[req.Content] {
		return invalid("Reaction", "content", "invalid", "")
	}
	by := c.f.actor(c.tok)
	for _, r := range *rs {
		if r.user == by && r.content == req.Content {
			return http.StatusOK, c.f.reactionJSON(r)
		}
	}
	r := &reaction{id: c.f.nextID(), content: req.Content, user: by, created: c.f.clock()}
	*rs = append(*rs, r)
	return http.StatusCreated, c.f.reactionJSON(r)
}

func (f *Fake) labelRoutes() {
	f.handle("GET /repos/{owner}/{repo}/labels", read("issues"), func(c *call) (int, any) {
		out := []any{}
		for _, l := range c.repo.labels {
			out = append(out, c.f.labelJSON(c.repo, l))
		}
		return http.StatusOK, c.page(out)
	})
	f.handle("GET /repos/{owner}/{repo}/labels/{name}", read("issues"), func(c *call) (int, any) {
		for _, l := range c.repo.labels {
			if strings.EqualFold(l.name, c.r.PathValue("name")) {
				return http.StatusOK, c.f.labelJSON(c.repo, l)
			}
		}
		return notFound()
	})
	f.handle("POST /repos/{owner}/{repo}/labels", write("issues"), func(c *call) (int, any) {
		var req struct {
			Name        string `json:"name"`
			Color       string `json:"color"`
			Description string `json:"description"`
		}
		if err := c.decode(&req); err != nil {
			return badJSON(err)
		}
		for _, l := range c.repo.labels {
			if strings.EqualFold(l.name, req.Name) {
				return invalid("Label", "name", "already_exists", "")
			}
		}
		l := c.f.ensureLabel(c.repo, req.Name)
		l.color, l.description = pick(req.Color, "ededed"), req.Description
		c.f.emit(c.repo, "label", "created", c.f.actor(c.tok), obj{"label": c.f.labelJSON(c.repo, l)})
		return http.StatusCreated, c.f.labelJSON(c.repo, l)
	})
	f.handle("GET /repos/{owner}/{repo}/issues/{issue_number}/labels", read("issues"), func(c *call) (int, any) {
		is := c.issueParam()
		if is == nil {
			return notFound()
		}
		return http.StatusOK, c.page(c.f.issueJSON(c.repo, is)["labels"].([]any))
	})
	f.handle("POST /repos/{owner}/{repo}/issues/{issue_number}/labels", write("issues"), addLabels)
	f.handle("DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}", write("issues"), func(c *call) (int, any) {
		is := c.issueParam()
		if is == nil {
			return notFound()
		}
		for k, l := range is.labels {
			if strings.EqualFold(l, c.r.PathValue("name")) {
				is.labels = append(is.labels[:k], is.labels[k+1:]...)
				c.f.emitIssue(c.repo, is, "unlabeled", c.f.actor(c.tok), obj{"label": c.f.labelJSON(c.repo, c.f.ensureLabel(c.repo, l))})
				return http.StatusOK, c.f.issueJSON(c.repo, is)["labels"]
			}
		}
		return apiError(http.StatusNotFound, "Label does not exist")
	})
}

func addLabels(c *call) (int, any) {
	is := c.issueParam()
	if is == nil {
		return notFound()
	}
	// GitHub takes {"labels": [...]} or a bare array (what go-github sends).
	var req struct {
		Labels []string `json:"labels"`
	}
	var list []string
	if err := c.decode(&list); err == nil {
		req.Labels = list
	} else if err := json.Unmarshal(c.body, &req); err != nil {
		return badJSON(err)
	}
	for _, l := range req.Labels {
		c.f.addLabel(c.repo, is, c.f.actor(c.tok), l)
	}
	return http.StatusOK, c.f.issueJSON(c.repo, is)["labels"]
}
