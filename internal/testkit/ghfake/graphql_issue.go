package ghfake

import "strings"

// issueRes is an Issue.
type issueRes struct {
	s *repoState
	i *issue
}

func (r *issueRes) typeName() string { return "Issue" }

func (r *issueRes) field(x *gqlExec, name string, args map[string]any) (any, error) {
	if v, ok, err := r.common(x, name, args); ok {
		return v, err
	}
	s, i := r.s, r.i
	switch name {
	case "id":
		return nodeID("Issue", i.id), nil
	case "state":
		return strings.ToUpper(i.state), nil
	case "stateReason":
		return upper(i.stateReason), nil
	case "isPinned":
		return i.pinned, nil
	case "blockedBy":
		return newConn("IssueConnection", "blockedBy", r.issues(i.blockedBy), args)
	case "blocking":
		list, _ := s.blocking(i)
		var items []any
		for _, b := range list {
			items = append(items, &issueRes{s: s, i: b})
		}
		return newConn("IssueConnection", "blocking", items, args)
	case "issueDependenciesSummary":
		d := x.c.f.dependencySummary(s, i)
		return mapRes{"IssueDependenciesSummary", map[string]any{"blockedBy": d["blocked_by"], "totalBlockedBy": d["total_blocked_by"],
			"blocking": d["blocking"], "totalBlocking": d["total_blocking"]}}, nil
	case "subIssues":
		return newConn("IssueConnection", "subIssues", r.issues(i.subIssues), args)
	case "subIssuesSummary":
		d := x.c.f.subIssuesSummary(s, i)
		return mapRes{"SubIssuesSummary", map[string]any{"total": d["total"], "completed": d["completed"], "percentCompleted": d["percent_completed"]}}, nil
	case "parent":
		if p := s.issue(i.parent); p != nil {
			return &issueRes{s: s, i: p}, nil
		}
		return nil, nil
	}
	return nil, unknownField("Issue", name)
}

func (r *issueRes) issues(ns []int) []any {
	var out []any
	for _, n := range ns {
		out = append(out, &issueRes{s: r.s, i: r.s.issue(n)})
	}
	return out
}

// common serves the fields issues and pull requests share.
func (r *issueRes) common(x *gqlExec, name string, args map[string]any) (any, bool, error) {
	if v, ok, err := r.editFields(x, name, args); ok {
		return v, true, err
	}
	s, i, f := r.s, r.i, x.c.f
	var v any
	switch name {
	case "databaseId":
		v = i.id
	case "number":
		v = i.number
	case "title":
		v = i.title
	case "body":
		v = i.body
	case "url":
		kind := map[bool]string{true: "pull", false: "issues"}[i.pr != nil]
		v = "https://github.com/" + s.fullName + "/" + kind + "/" + itoa(int64(i.number))
	case "createdAt":
		v = ts(i.created)
	case "updatedAt":
		v = ts(i.updated)
	case "closedAt":
		v = ts(i.closed)
	case "closed":
		v = i.state == "closed"
	case "locked":
		v = i.locked
	case "author":
		v = actor(f, i.author)
	case "authorAssociation":
		v = f.association(s, i.author)
	case "repository":
		v = &repoRes{s: s}
	case "milestone":
		if m := s.milestone(i.milestone); m != nil {
			v = &milestoneRes{s: s, m: m}
		}
	case "labels":
		var items []any
		for _, n := range i.labels {
			items = append(items, labelRes{f.ensureLabel(s, n)})
		}
		c, err := newConn("LabelConnection", "labels", items, args)
		return c, true, err
	case "assignees":
		var items []any
		for _, u := range i.assignees {
			items = append(items, actor(f, u))
		}
		c, err := newConn("UserConnection", "assignees", items, args)
		return c, true, err
	case "reactions":
		c, err := reactionConn(f, i.reactions, args)
		return c, true, err
	case "timelineItems":
		c, err := r.timelineItems(x, args)
		return c, true, err
	case "comments":
		var items []any
		for _, cm := range i.comments {
			items = append(items, &commentRes{s: s, i: i, c: cm})
		}
		c, err := newConn("IssueCommentConnection", "comments", items, args)
		return c, true, err
	default:
		return nil, false, nil
	}
	return v, true, nil
}

// milestoneRes is a Milestone.
type milestoneRes struct {
	s *repoState
	m *milestone
}

func (r *milestoneRes) typeName() string { return "Milestone" }

func (r *milestoneRes) field(x *gqlExec, name string, args map[string]any) (any, error) {
	m, s := r.m, r.s
	switch name {
	case "id":
		return nodeID("Milestone", m.id), nil
	case "number":
		return m.number, nil
	case "title":
		return m.title, nil
	case "description":
		return nilIfEmpty(m.description), nil
	case "state":
		return strings.ToUpper(m.state), nil
	case "dueOn":
		return ts(m.dueOn), nil
	case "closedAt":
		return ts(m.closed), nil
	case "createdAt":
		return ts(m.created), nil
	case "updatedAt":
		return ts(m.updated), nil
	case "closed":
		return m.state == "closed", nil
	case "url":
		return "https://github.com/" + s.fullName + "/milestone/" + itoa(int64(m.number)), nil
	case "progressPercentage":
		total, done := 0, 0
		for _, i := range s.issues {
			if i.milestone == m.number {
				total++
				if i.state == "closed" {
					done++
				}
			}
		}
		if total == 0 {
			return 0.0, nil
		}
		return float64(done) * 100 / float64(total), nil
	case "issues", "pullRequests":
		inner := (&repoRes{s: s})
		all, err := inner.issueList(x, name, map[string]any{"states": args["states"], "labels": args["labels"], "first": 100})
		if err != nil {
			return nil, err
		}
		var items []any
		for _, it := range all.(*connRes).items {
			if num := numberOf(it); s.issue(num).milestone == m.number {
				items = append(items, it)
			}
		}
		return newConn(all.(*connRes).typ, name, items, args)
	}
	return nil, unknownField("Milestone", name)
}

func numberOf(r any) int {
	switch v := r.(type) {
	case *issueRes:
		return v.i.number
	case *prRes:
		return v.i.number
	}
	return 0
}

func (r *issueRes) issue() *issue { return r.i }
