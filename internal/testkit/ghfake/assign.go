package ghfake

import (
	"net/http"
	"strings"
	"time"
)

// assignment is one assigned or unassigned event of an issue: actor
// assigned (or unassigned) assignee.
type assignment struct {
	id       int64
	kind     string // assigned, unassigned
	assignee *user
	actor    *user
	at       time.Time
}

// assigneeRoutes serves adding and removing assignees
// (https://docs.github.com/rest/issues/assignees).
func (f *Fake) assigneeRoutes() {
	f.handle("POST /repos/{owner}/{repo}/issues/{issue_number}/assignees", write("issues"), func(c *call) (int, any) {
		return c.changeAssignees(http.StatusCreated, true)
	})
	f.handle("DELETE /repos/{owner}/{repo}/issues/{issue_number}/assignees", write("issues"), func(c *call) (int, any) {
		return c.changeAssignees(http.StatusOK, false)
	})
}

// changeAssignees adds (or removes) the request's assignees and answers
// with the issue.
func (c *call) changeAssignees(status int, add bool) (int, any) {
	is := c.issueParam()
	if is == nil {
		return notFound()
	}
	var req struct {
		Assignees []string `json:"assignees"`
	}
	if err := c.decode(&req); err != nil {
		return badJSON(err)
	}
	by := c.f.actor(c.tok)
	want := loginsOf(is.assignees)
	for _, a := range req.Assignees {
		if add {
			want = append(want, a)
		} else {
			want = dropLogin(want, a)
		}
	}
	c.f.setAssignees(c.repo, is, by, want, true)
	is.updated = c.f.clock()
	return status, c.f.issueJSON(c.repo, is)
}

// Assign assigns logins to the issue, as by assigning them (issues.assigned,
// one delivery per assignee, as GitHub sends).
func (i *Issue) Assign(by string, logins ...string) {
	i.do(func(f *Fake, s *repoState, is *issue) {
		f.setAssignees(s, is, f.ensureUser(by), append(loginsOf(is.assignees), logins...), true)
	})
}

// Unassign removes logins from the issue's assignees, as by removing them.
func (i *Issue) Unassign(by string, logins ...string) {
	i.do(func(f *Fake, s *repoState, is *issue) {
		want := loginsOf(is.assignees)
		for _, l := range logins {
			want = dropLogin(want, l)
		}
		f.setAssignees(s, is, f.ensureUser(by), want, true)
	})
}

// setAssignees makes want (logins) the issue's assignees, recording an
// unassigned event for each one removed and an assigned event for each one
// added, by by; emit sends their webhooks.
func (f *Fake) setAssignees(s *repoState, is *issue, by *user, want []string, emit bool) {
	var next []*user
	for _, l := range want {
		if u := f.ensureUser(l); !hasUser(next, u) {
			next = append(next, u)
		}
	}
	for _, u := range is.assignees {
		if !hasUser(next, u) {
			f.recordAssignment(s, is, "unassigned", u, by, emit)
		}
	}
	old := is.assignees
	is.assignees = next
	var added []*user
	for _, u := range next {
		if !hasUser(old, u) {
			added = append(added, u)
			f.recordAssignment(s, is, "assigned", u, by, false)
		}
	}
	if emit {
		f.emitAssigned(s, is, by, added)
	}
}

// recordAssignment keeps one timeline event (and sends its webhook when
// emit is set).
func (f *Fake) recordAssignment(s *repoState, is *issue, kind string, who, by *user, emit bool) {
	is.assignments = append(is.assignments, &assignment{id: f.nextID(), kind: kind, assignee: who, actor: by, at: f.clock()})
	if emit {
		f.emitIssue(s, is, kind, by, obj{"assignee": f.userJSON(who)})
	}
}

// emitAssigned sends issues.assigned for each of who.
func (f *Fake) emitAssigned(s *repoState, is *issue, by *user, who []*user) {
	for _, u := range who {
		f.emitIssue(s, is, "assigned", by, obj{"assignee": f.userJSON(u)})
	}
}

// assignmentJSON is an assigned or unassigned timeline event, in the
// shape of GitHub's timeline-assigned-issue-event.
func (f *Fake) assignmentJSON(s *repoState, a *assignment) obj {
	kind := map[string]string{"assigned": "AssignedEvent", "unassigned": "UnassignedEvent"}[a.kind]
	return obj{"id": a.id, "node_id": nodeID(kind, a.id), "url": f.api(s) + "/issues/events/" + itoa(a.id),
		"actor": f.userJSON(a.actor), "event": a.kind, "commit_id": nil, "commit_url": nil, "created_at": ts(a.at),
		"performed_via_github_app": nil, "assignee": f.userJSON(a.assignee)}
}

func hasUser(us []*user, u *user) bool {
	for _, o := range us {
		if o == u {
			return true
		}
	}
	return false
}

func loginsOf(us []*user) []string {
	out := make([]string, 0, len(us))
	for _, u := range us {
		out = append(out, u.login)
	}
	return out
}

func dropLogin(logins []string, l string) []string {
	out := logins[:0:0]
	for _, o := range logins {
		if !strings.EqualFold(o, l) {
			out = append(out, o)
		}
	}
	return out
}
