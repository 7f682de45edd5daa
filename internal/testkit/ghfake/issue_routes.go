package ghfake

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
)

func (f *Fake) issueRoutes() {
	f.handle("GET /repos/{owner}/{repo}/issues", read("issues"), listIssues)
	f.handle("POST /repos/{owner}/{repo}/issues", write("issues"), createIssue)
	f.handle("GET /repos/{owner}/{repo}/issues/{issue_number}", read("issues"), func(c *call) (int, any) {
		if is := c.issueParam(); is != nil {
			return http.StatusOK, c.f.issueJSON(c.repo, is)
		}
		return notFound()
	})
	f.handle("PATCH /repos/{owner}/{repo}/issues/{issue_number}", write("issues"), editIssue)
	f.handle("GET /repos/{owner}/{repo}/issues/{issue_number}/timeline", read("issues"), listTimeline)
	f.assigneeRoutes()
	f.commentRoutes()
	f.labelRoutes()
	f.milestoneRoutes()
	f.dependencyRoutes()
	f.handle("GET /repos/{owner}/{repo}/collaborators/{username}/permission", read("metadata"), permission)
	f.handle("GET /repos/{owner}/{repo}/collaborators/{username}", read("metadata"), func(c *call) (int, any) {
		if level(userLevel(c.repo.perms[strings.ToLower(c.r.PathValue("username"))])) > 0 {
			return http.StatusNoContent, nil
		}
		return notFound()
	})
}

func (c *call) issueParam() *issue {
	n, _ := strconv.Atoi(c.r.PathValue("issue_number"))
	return c.repo.issue(n)
}

// listIssues serves GET /issues: issues and pull requests (as GitHub lists
// them) filtered by state (default open), milestone, labels and since.
func listIssues(c *call) (int, any) {
	q := c.r.URL.Query()
	state := pick(q.Get("state"), "open")
	var since time.Time
	if s := q.Get("since"); s != "" {
		since, _ = time.Parse(time.RFC3339, s)
	}
	out := []any{}
	for i := len(c.repo.issues) - 1; i >= 0; i-- { // newest first
		is := c.repo.issues[i]
		if (state != "all" && is.state != state) || is.updated.Before(since) || !c.milestoneMatches(q.Get("milestone"), is) ||
			!hasLabels(is, q.Get("labels")) {
			continue
		}
		out = append(out, c.f.issueJSON(c.repo, is))
	}
	return http.StatusOK, c.page(out)
}

func (c *call) milestoneMatches(want string, is *issue) bool {
	switch want {
	case "":
		return true
	case "*":
		return is.milestone != 0
	case "none":
		return is.milestone == 0
	}
	return want == strconv.Itoa(is.milestone)
}

func hasLabels(is *issue, csv string) bool {
	if csv == "" {
		return true
	}
	for _, want := range strings.Split(csv, ",") {
		found := false
		for _, l := range is.labels {
			found = found || strings.EqualFold(l, strings.TrimSpace(want))
		}
		if !found {
			return false
		}
	}
	return true
}

type issueReq struct {
	Title       *string          `json:"title"`
	Body        *string          `json:"body"`
	State       *string          `json:"state"`
	StateReason *string          `json:"state_reason"`
	Milestone   *json.RawMessage `json:"milestone"`
	Labels      *[]string        `json:"labels"`
	Assignees   *[]string        `json:"assignees"`
}

func createIssue(c *call) (int, any) {
	var req issueReq
	if err := c.decode(&req); err != nil {
		return badJSON(err)
	}
	if deref(req.Title) == "" {
		return invalid("Issue", "title", "missing_field", "")
	}
	by := c.f.actor(c.tok)
	is := c.f.newIssue(c.repo, by, *req.Title, deref(req.Body), nil)
	if status, body := c.applyIssue(is, &req, by, false); status != 0 {
		return status, body
	}
	c.f.emitOpened(c.repo, is)
	return http.StatusCreated, c.f.issueJSON(c.repo, is)
}

func editIssue(c *call) (int, any) {
	is := c.issueParam()
	if is == nil {
		return notFound()
	}
	var req issueReq
	if err := c.decode(&req); err != nil {
		return badJSON(err)
	}
	by := c.f.actor(c.tok)
	oldTitle, oldBody := is.title, is.body
	if status, body := c.applyIssue(is, &req, by, true); status != 0 {
		return status, body
	}
	if is.body != oldBody {
		newBody := is.body
		is.body = oldBody
		c.f.editBody(is, by, newBody)
		c.f.mention(c.repo, is, by, is.body)
	}
	if ch := editChanges(oldTitle, is.title, oldBody, is.body); len(ch) > 0 {
		c.f.emitIssue(c.repo, is, "edited", by, obj{"changes": ch})
	}
	return http.StatusOK, c.f.issueJSON(c.repo, is)
}

// applyIssue copies an issue request onto is, emitting what changes.
func (c *call) applyIssue(is *issue, req *issueReq, by *user, emit bool) (int, any) {
	set(&is.title, req.Title)
	set(&is.body, req.Body)
	if req.Milestone != nil {
		var n *int
		if err := json.Unmarshal(*req.Milestone, &n); err != nil || (n != nil && c.repo.milestone(*n) == nil) {
			return invalid("Issue", "milestone", "invalid", "")
		}
		if emit {
			c.f.setMilestone(c.repo, is, by, deref(n))
		} else {
			is.milestone = deref(n)
		}
	}
	if req.Labels != nil {
		is.labels = nil
		for _, l := range *req.Labels {
			is.labels = append(is.labels, c.f.ensureLabel(c.repo, l).name)
		}
	}
	if req.Assignees != nil {
		c.f.setAssignees(c.repo, is, by, *req.Assignees, emit)
	}
	switch deref(req.State) {
	case "closed":
		c.f.closeIssue(c.repo, is, by, pick(deref(req.StateReason), "completed"))
		if is.pr != nil {
			c.f.emitPull(c.repo, is, "closed", by, nil)
		}
	case "open":
		if is.state == "closed" && !(is.pr != nil && is.pr.merged) {
			is.state, is.stateReason, is.closed = "open", "reopened", time.Time{}
			c.f.emitIssue(c.repo, is, "reopened", by, nil)
		}
	}
	is.updated = c.f.clock()
	return 0, nil
}

// permission serves collaborators/{user}/permission: admin, write, read or
// none, with the finer role_name (maintain → write, triage → read).
func permission(c *call) (int, any) {
	login := c.r.PathValue("username")
	u := c.f.users[strings.ToLower(login)]
	if u == nil {
		return apiError(http.StatusNotFound, login+" is not a user")
	}
	role := c.repo.perms[strings.ToLower(login)]
	if u == c.repo.owner {
		role = "admin"
	}
	perm := map[string]string{"admin": "admin", "maintain": "write", "write": "write", "triage": "read", "read": "read"}[role]
	if perm == "" {
		perm, role = "none", "none"
	}
	uj := c.f.userJSON(u)
	rank := level(userLevel(role))
	uj["permissions"] = obj{"admin": role == "admin", "maintain": role == "admin" || role == "maintain",
		"push": rank >= 2, "triage": rank >= 1 && role != "read", "pull": rank >= 1}
	uj["role_name"] = role
	return http.StatusOK, obj{"permission": perm, "role_name": role, "user": uj}
}
