package ghfake

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
)

func (f *Fake) pullRoutes() {
	f.handle("GET /repos/{owner}/{repo}/pulls", read("pull_requests"), listPulls)
	f.handle("POST /repos/{owner}/{repo}/pulls", write("pull_requests"), createPull)
	f.handle("GET /repos/{owner}/{repo}/pulls/{pull_number}", read("pull_requests"), func(c *call) (int, any) {
		if is := c.pullParam(); is != nil {
			return http.StatusOK, c.f.pullJSON(c.repo, is)
		}
		return notFound()
	})
	f.handle("PATCH /repos/{owner}/{repo}/pulls/{pull_number}", write("pull_requests"), editPull)
	f.handle("GET /repos/{owner}/{repo}/pulls/{pull_number}/commits", read("pull_requests"), func(c *call) (int, any) {
		is := c.pullParam()
		if is == nil {
			return notFound()
		}
		out := []any{}
		for _, cm := range c.repo.prCommits(is.pr) {
			out = append(out, c.f.commitJSON(c.repo, cm, false))
		}
		return http.StatusOK, c.page(out)
	})
	f.handle("GET /repos/{owner}/{repo}/pulls/{pull_number}/files", read("pull_requests"), func(c *call) (int, any) {
		is := c.pullParam()
		if is == nil {
			return notFound()
		}
		files, _, _ := c.f.prFiles(c.repo, is.pr)
		return http.StatusOK, c.page(files)
	})
	f.handle("GET /repos/{owner}/{repo}/pulls/{pull_number}/merge", read("pull_requests"), func(c *call) (int, any) {
		if is := c.pullParam(); is != nil && is.pr.merged {
			return http.StatusNoContent, nil
		}
		return notFound()
	})
	f.handle("PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge", write("contents"), mergePull)
	f.handle("GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls", read("pull_requests"), func(c *call) (int, any) {
		sha := c.repo.resolve(c.r.PathValue("commit_sha"))
		out := []any{}
		for _, is := range c.repo.issues {
			if p := is.pr; p != nil && (p.headSHA == sha || p.mergeSHA == sha || c.repo.git.ancestors(p.headSHA)[sha]) {
				out = append(out, c.f.pullJSON(c.repo, is))
			}
		}
		return http.StatusOK, c.page(out)
	})
	f.reviewRoutes()
}

func (c *call) pullParam() *issue {
	n, _ := strconv.Atoi(c.r.PathValue("pull_number"))
	is := c.repo.issue(n)
	if is == nil || is.pr == nil {
		return nil
	}
	return is
}

func listPulls(c *call) (int, any) {
	q := c.r.URL.Query()
	state := pick(q.Get("state"), "open")
	head := q.Get("head")
	if _, h, ok := strings.Cut(head, ":"); ok {
		head = h
	}
	out := []any{}
	for i := len(c.repo.issues) - 1; i >= 0; i-- {
		is := c.repo.issues[i]
		if is.pr == nil || (state != "all" && is.state != state) || !matchQ(head, is.pr.headRef) || !matchQ(q.Get("base"), is.pr.baseRef) {
			continue
		}
		out = append(out, c.f.pullJSON(c.repo, is))
	}
	return http.StatusOK, c.page(out)
}

func createPull(c *call) (int, any) {
	var req struct {
		Title string `json:"title"`
		Body  string `json:"body"`
		Head  string `json:"head"`
		Base  string `json:"base"`
		Draft bool   `json:"draft"`
	}
	if err := c.decode(&req); err != nil {
		return badJSON(err)
	}
	if _, h, ok := strings.Cut(req.Head, ":"); ok {
		req.Head = h
	}
	is, err := c.f.openPull(c.repo, c.f.actor(c.tok), req.Head, req.Base, req.Title, req.Body, req.Draft, nil)
	if err != nil {
		return invalid("PullRequest", "head", "invalid", err.Error())
	}
	return http.StatusCreated, c.f.pullJSON(c.repo, is)
}

func editPull(c *call) (int, any) {
	is := c.pullParam()
	if is == nil {
		return notFound()
	}
	var req struct {
		Title *string `json:"title"`
		Body  *string `json:"body"`
		State *string `json:"state"`
		Base  *string `json:"base"`
	}
	if err := c.decode(&req); err != nil {
		return badJSON(err)
	}
	by := c.f.actor(c.tok)
	if req.Base != nil && c.repo.refs["refs/heads/"+*req.Base] == "" {
		return invalid("PullRequest", "base", "invalid", "")
	}
	oldTitle, oldBody := is.title, is.body
	set(&is.title, req.Title)
	set(&is.body, req.Body)
	if is.body != oldBody {
		c.f.mention(c.repo, is, by, is.body)
	}
	ch := editChanges(oldTitle, is.title, oldBody, is.body)
	if req.Base != nil && *req.Base != is.pr.baseRef {
		ch["base"] = obj{"ref": obj{"from": is.pr.baseRef}, "sha": obj{"from": is.pr.baseSHA}}
		is.pr.baseRef, is.pr.baseSHA = *req.Base, c.repo.refs["refs/heads/"+*req.Base]
	}
	if len(ch) > 0 {
		c.f.emitPull(c.repo, is, "edited", by, obj{"changes": ch})
	}
	switch deref(req.State) {
	case "closed":
		if is.state == "open" {
			c.f.closeIssue(c.repo, is, by, "")
			c.f.emitPull(c.repo, is, "closed", by, nil)
		}
	case "open":
		if is.state == "closed" && !is.pr.merged {
			is.state, is.stateReason = "open", "reopened"
			c.f.emitPull(c.repo, is, "reopened", by, nil)
		}
	}
	is.updated = c.f.clock()
	return http.StatusOK, c.f.pullJSON(c.repo, is)
}

// mergePull serves PUT /pulls/{n}/merge (needs contents: write, as on GitHub).
func mergePull(c *call) (int, any) {
	is := c.pullParam()
	if is == nil {
		return notFound()
	}
	var req struct {
		Method  string `json:"merge_method"`
		SHA     string `json:"sha"`
		Title   string `json:"commit_title"`
		Message string `json:"commit_message"`
	}
	if c.r.ContentLength != 0 {
		if err := c.decode(&req); err != nil {
			return badJSON(err)
		}
	}
	msg := ""
	if req.Title != "" || req.Message != "" {
		msg = strings.TrimSpace(req.Title + "\n\n" + req.Message)
	}
	if c.repo.merging.rules[is.pr.baseRef].MergeQueue {
		return apiError(http.StatusMethodNotAllowed, "Changes must be made through the merge queue")
	}
	sha, err := c.f.merge(c.repo, is, c.f.actor(c.tok), MergeMethod(req.Method), req.SHA, msg)
	var me *mergeError
	if errors.As(err, &me) {
		return apiError(me.status, me.msg)
	}
	return http.StatusOK, obj{"sha": sha, "merged": true, "message": "Pull Request successfully merged"}
}

func (f *Fake) reviewRoutes() {
	base := "/repos/{owner}/{repo}/pulls/{pull_number}"
	f.handle("GET "+base+"/reviews", read("pull_requests"), func(c *call) (int, any) {
		is := c.pullParam()
		if is == nil {
			return notFound()
		}
		out := []any{}
		for _, rv := range is.pr.reviews {
			if rv.state != "PENDING" {
				out = append(out, c.f.reviewJSON(c.repo, is, rv))
			}
		}
		return http.StatusOK, c.page(out)
	})
	f.handle("GET "+base+"/reviews/{review_id}", read("pull_requests"), func(c *call) (int, any) {
		if is, rv := c.reviewParam(); rv != nil {
			return http.StatusOK, c.f.reviewJSON(c.repo, is, rv)
		}
		return notFound()
	})
	f.handle("POST "+base+"/reviews", participate("pull_requests"), createReview)
	f.handle("PUT "+base+"/reviews/{review_id}/dismissals", write("pull_requests"), func(c *call) (int, any) {
		is, rv := c.reviewParam()
		if rv == nil {
			return notFound()
		}
		var req struct {
			Message string `json:"message"`
			Event   string `json:"event"`
		}
		if err := c.decode(&req); err != nil {
			return badJSON(err)
		}
		if req.Message == "" {
			return invalid("PullRequestReview", "message", "missing_field", "message is required to dismiss a review")
		}
		if rv.state == "PENDING" {
			return unprocessable("Can not dismiss a pending pull request review")
		}
		rv.state = "DISMISSED"
		c.f.emit(c.repo, "pull_request_review", "dismissed", c.f.actor(c.tok), obj{"review": c.f.reviewJSON(c.repo, is, rv), "pull_request": c.f.pullJSON(c.repo, is)})
		return http.StatusOK, c.f.reviewJSON(c.repo, is, rv)
	})
	f.handle("GET "+base+"/requested_reviewers", read("pull_requests"), func(c *call) (int, any) {
		is := c.pullParam()
		if is == nil {
			return notFound()
		}
		return http.StatusOK, obj{"users": c.f.pullJSON(c.repo, is)["requested_reviewers"], "teams": []any{}}
	})
	f.handle("POST "+base+"/requested_reviewers", write("pull_requests"), func(c *call) (int, any) {
		is, logins, status, body := c.reviewersReq()
		if status != 0 {
			return status, body
		}
		if err := c.f.requestReviewers(c.repo, is, c.f.actor(c.tok), logins); err != nil {
			return unprocessable(err.Error())
		}
		return http.StatusCreated, c.f.pullJSON(c.repo, is)
	})
	f.handle("DELETE "+base+"/requested_reviewers", write("pull_requests"), func(c *call) (int, any) {
		is, logins, status, body := c.reviewersReq()
		if status != 0 {
			return status, body
		}
		for _, l := range logins {
			u := c.f.ensureUser(l)
			is.pr.requested = removeUser(is.pr.requested, u)
			c.f.emitPull(c.repo, is, "review_request_removed", c.f.actor(c.tok), obj{"requested_reviewer": c.f.userJSON(u)})
		}
		return http.StatusOK, c.f.pullJSON(c.repo, is)
	})
}

func (c *call) reviewParam() (*issue, *review) {
	is := c.pullParam()
	id, _ := strconv.ParseInt(c.r.PathValue("review_id"), 10, 64)
	if is == nil {
		return nil, nil
	}
	for _, rv := range is.pr.reviews {
		if rv.id == id {
			return is, rv
		}
	}
	return nil, nil
}

func (c *call) reviewersReq() (*issue, []string, int, any) {
	is := c.pullParam()
	if is == nil {
		s, b := notFound()
		return nil, nil, s, b
	}
	var req struct {
		Reviewers []string `json:"reviewers"`
	}
	if err := c.decode(&req); err != nil {
		s, b := badJSON(err)
		return nil, nil, s, b
	}
	return is, req.Reviewers, 0, nil
}

func createReview(c *call) (int, any) {
	is := c.pullParam()
	if is == nil {
		return notFound()
	}
	var req struct {
		CommitID string `json:"commit_id"`
		Body     string `json:"body"`
		Event    string `json:"event"`
	}
	if err := c.decode(&req); err != nil {
		return badJSON(err)
	}
	rv, err := c.f.addReview(c.repo, is, c.f.actor(c.tok), reviewState(req.Event), req.Body, req.CommitID)
	if err != nil {
		return unprocessable(err.Error())
	}
	return http.StatusOK, c.f.reviewJSON(c.repo, is, rv)
}
