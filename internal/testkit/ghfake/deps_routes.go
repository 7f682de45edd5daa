package ghfake

import (
	"net/http"
	"strconv"
	"time"
)

func (f *Fake) milestoneRoutes() {
	f.handle("GET /repos/{owner}/{repo}/milestones", read("issues"), func(c *call) (int, any) {
		state := pick(c.r.URL.Query().Get("state"), "open")
		out := []any{}
		for _, m := range c.repo.milestones {
			if state == "all" || m.state == state {
				out = append(out, c.f.milestoneJSON(c.repo, m))
			}
		}
		return http.StatusOK, c.page(out)
	})
	f.handle("GET /repos/{owner}/{repo}/milestones/{milestone_number}", read("issues"), func(c *call) (int, any) {
		if m := c.milestoneParam(); m != nil {
			return http.StatusOK, c.f.milestoneJSON(c.repo, m)
		}
		return notFound()
	})
	f.handle("POST /repos/{owner}/{repo}/milestones", write("issues"), func(c *call) (int, any) {
		var req milestoneReq
		if err := c.decode(&req); err != nil {
			return badJSON(err)
		}
		if deref(req.Title) == "" {
			return invalid("Milestone", "title", "missing_field", "")
		}
		m := c.f.newMilestone(c.repo, c.f.actor(c.tok), *req.Title, deref(req.Description))
		req.apply(m, c.f.clock())
		return http.StatusCreated, c.f.milestoneJSON(c.repo, m)
	})
	f.handle("PATCH /repos/{owner}/{repo}/milestones/{milestone_number}", write("issues"), func(c *call) (int, any) {
		m := c.milestoneParam()
		if m == nil {
			return notFound()
		}
		var req milestoneReq
		if err := c.decode(&req); err != nil {
			return badJSON(err)
		}
		was := m.state
		req.apply(m, c.f.clock())
		action := "edited"
		if was != m.state {
			action = map[string]string{"open": "opened", "closed": "closed"}[m.state]
		}
		c.f.emit(c.repo, "milestone", action, c.f.actor(c.tok), obj{"milestone": c.f.milestoneJSON(c.repo, m)})
		return http.StatusOK, c.f.milestoneJSON(c.repo, m)
	})
}

type milestoneReq struct {
	Title       *string    `json:"title"`
	State       *string    `json:"state"`
	Description *string    `json:"description"`
	DueOn       *time.Time `json:"due_on"`
}

func (r *milestoneReq) apply(m *milestone, now time.Time) {
	set(&m.title, r.Title)
	set(&m.description, r.Description)
	if r.DueOn != nil {
		m.dueOn = r.DueOn.UTC()
	}
	if r.State != nil && *r.State != m.state {
		m.state = *r.State
		m.closed = time.Time{}
		if m.state == "closed" {
			m.closed = now
		}
	}
	m.updated = now
}

func (c *call) milestoneParam() *milestone {
	n, _ := strconv.Atoi(c.r.PathValue("milestone_number"))
	return c.repo.milestone(n)
}

// dependencyRoutes serves issue dependencies (blocked_by / blocking) and
// sub-issues, which REST addresses by the other issue's database ID.
func (f *Fake) dependencyRoutes() {
	base := "/repos/{owner}/{repo}/issues/{issue_number}"
	f.handle("GET "+base+"/dependencies/blocked_by", read("issues"), func(c *call) (int, any) {
		return c.issueList(func(is *issue) []*issue { return c.byNumbers(is.blockedBy) })
	})
	f.handle("GET "+base+"/dependencies/blocking", read("issues"), func(c *call) (int, any) {
		return c.issueList(func(is *issue) []*issue { out, _ := c.repo.blocking(is); return out })
	})
	f.handle("POST "+base+"/dependencies/blocked_by", write("issues"), func(c *call) (int, any) {
		is, other, status, body := c.issueAndTarget("issue_id")
		if status != 0 {
			return status, body
		}
		if err := c.f.addBlocker(c.repo, is, other); err != nil {
			return unprocessable(err.Error())
		}
		return http.StatusCreated, c.f.issueJSON(c.repo, other)
	})
	f.handle("DELETE "+base+"/dependencies/blocked_by/{issue_id}", write("issues"), func(c *call) (int, any) {
		is := c.issueParam()
		id, _ := strconv.ParseInt(c.r.PathValue("issue_id"), 10, 64)
		other := c.repo.issueByID(id)
		if is == nil || other == nil {
			return notFound()
		}
		is.blockedBy = removeInt(is.blockedBy, other.number)
		return http.StatusOK, c.f.issueJSON(c.repo, other)
	})
	f.handle("GET "+base+"/sub_issues", read("issues"), func(c *call) (int, any) {
		return c.issueList(func(is *issue) []*issue { return c.byNumbers(is.subIssues) })
	})
	f.handle("GET "+base+"/parent", read("issues"), func(c *call) (int, any) {
		is := c.issueParam()
		if is == nil || is.parent == 0 {
			return notFound()
		}
		return http.StatusOK, c.f.issueJSON(c.repo, c.repo.issue(is.parent))
	})
	f.handle("POST "+base+"/sub_issues", write("issues"), func(c *call) (int, any) {
		is, child, status, body := c.issueAndTarget("sub_issue_id")
		if status != 0 {
			return status, body
		}
		var req struct {
			Replace bool `json:"replace_parent"`
		}
		_ = c.decode(&req)
		if err := c.f.addSubIssue(c.repo, is, child, req.Replace); err != nil {
			return unprocessable(err.Error())
		}
		return http.StatusCreated, c.f.issueJSON(c.repo, is)
	})
	f.handle("DELETE "+base+"/sub_issue", write("issues"), func(c *call) (int, any) {
		is, child, status, body := c.issueAndTarget("sub_issue_id")
		if status != 0 {
			return status, body
		}
		if child.parent != is.number {
			return notFound()
		}
		child.parent = 0
		is.subIssues = removeInt(is.subIssues, child.number)
		return http.StatusOK, c.f.issueJSON(c.repo, is)
	})
}

func (c *call) byNumbers(ns []int) []*issue {
	out := make([]*issue, 0, len(ns))
	for _, n := range ns {
		out = append(out, c.repo.issue(n))
	}
	return out
}

func (c *call) issueList(get func(*issue) []*issue) (int, any) {
	is := c.issueParam()
	if is == nil {
		return notFound()
	}
	out := []any{}
	for _, x := range get(is) {
		out = append(out, c.f.issueJSON(c.repo, x))
	}
	return http.StatusOK, c.page(out)
}

// issueAndTarget reads the path's issue and the body's issue named by its
// database ID in field.
func (c *call) issueAndTarget(field string) (*issue, *issue, int, any) {
	is := c.issueParam()
	if is == nil {
		s, b := notFound()
		return nil, nil, s, b
	}
	var req map[string]any
	if err := c.decode(&req); err != nil {
		s, b := badJSON(err)
		return nil, nil, s, b
	}
	id, _ := req[field].(float64)
	other := c.repo.issueByID(int64(id))
	if other == nil {
		s, b := invalid("Issue", field, "invalid", "no issue with that ID in this repository")
		return nil, nil, s, b
	}
	return is, other, 0, nil
}
