package ghfake

import "strings"

// association is author_association as GitHub computes it (not to be
// trusted for authorization, but present).
func (f *Fake) association(s *repoState, u *user) string {
	switch {
	case u == s.owner:
		return "OWNER"
	case s.owner.typ == "Organization" && s.perms[strings.ToLower(u.login)] == "admin":
		return "MEMBER"
	case s.perms[strings.ToLower(u.login)] != "":
		return "COLLABORATOR"
	}
	return "NONE"
}

func reactionsJSON(url string, rs []*reaction) obj {
	o := obj{"url": url, "total_count": len(rs)}
	for k := range reactionContents {
		o[k] = 0
	}
	for _, r := range rs {
		o[r.content] = o[r.content].(int) + 1
	}
	return o
}

func (f *Fake) reactionJSON(r *reaction) obj {
	return obj{"id": r.id, "node_id": nodeID("Reaction", r.id), "user": f.userJSON(r.user),
		"content": r.content, "created_at": ts(r.created)}
}

func (f *Fake) labelJSON(s *repoState, l *label) obj {
	return obj{"id": l.id, "node_id": nodeID("Label", l.id), "url": f.api(s) + "/labels/" + l.name,
		"name": l.name, "color": l.color, "default": false, "description": nilIfEmpty(l.description)}
}

func (f *Fake) milestoneJSON(s *repoState, m *milestone) any {
	if m == nil {
		return nil
	}
	open, closed := 0, 0
	for _, i := range s.issues {
		if i.milestone == m.number {
			if i.state == "open" {
				open++
			} else {
				closed++
			}
		}
	}
	api := f.api(s) + "/milestones/" + itoa(int64(m.number))
	return obj{
		"url": api, "html_url": "https://github.com/" + s.fullName + "/milestone/" + itoa(int64(m.number)),
		"labels_url": api + "/labels", "id": m.id, "node_id": nodeID("Milestone", m.id), "number": m.number,
		"title": m.title, "description": m.description, "creator": f.userJSON(m.creator),
		"open_issues": open, "closed_issues": closed, "state": m.state, "created_at": ts(m.created),
		"updated_at": ts(m.updated), "due_on": ts(m.dueOn), "closed_at": ts(m.closed),
	}
}

func (f *Fake) issueJSON(s *repoState, i *issue) obj {
	api := f.api(s) + "/issues/" + itoa(int64(i.number))
	labels := []any{}
	for _, n := range i.labels {
		labels = append(labels, f.labelJSON(s, f.ensureLabel(s, n)))
	}
	assignees := []any{}
	for _, a := range i.assignees {
		assignees = append(assignees, f.userJSON(a))
	}
	var assignee any
	if len(i.assignees) > 0 {
		assignee = f.userJSON(i.assignees[0])
	}
	var closedBy any
	if i.state == "closed" {
		closedBy = f.userJSON(i.closedBy)
	}
	html := "https://github.com/" + s.fullName + "/issues/" + itoa(int64(i.number))
	o := obj{
		"url": api, "repository_url": f.api(s), "labels_url": api + "/labels{/name}",
		"comments_url": api + "/comments", "events_url": api + "/events", "html_url": html,
		"id": i.id, "node_id": nodeID("Issue", i.id), "number": i.number, "title": i.title,
		"user": f.userJSON(i.author), "labels": labels, "state": i.state, "locked": i.locked,
		"assignee": assignee, "assignees": assignees, "milestone": f.milestoneJSON(s, s.milestone(i.milestone)),
		"comments": len(i.comments), "created_at": ts(i.created), "updated_at": ts(i.updated),
		"closed_at": ts(i.closed), "closed_by": closedBy, "author_association": f.association(s, i.author),
		"active_lock_reason": nil, "body": nilIfEmpty(i.body), "state_reason": nilIfEmpty(i.stateReason),
		"reactions": reactionsJSON(api+"/reactions", i.reactions), "timeline_url": api + "/timeline",
		"performed_via_github_app": nil, "type": nil, "draft": false,
		"sub_issues_summary":         f.subIssuesSummary(s, i),
		"issue_dependencies_summary": f.dependencySummary(s, i),
	}
	if i.pr != nil {
		prAPI := f.api(s) + "/pulls/" + itoa(int64(i.number))
		o["html_url"] = "https://github.com/" + s.fullName + "/pull/" + itoa(int64(i.number))
		o["draft"] = i.pr.draft
		o["pull_request"] = obj{"url": prAPI, "html_url": o["html_url"], "diff_url": o["html_url"].(string) + ".diff",
			"patch_url": o["html_url"].(string) + ".patch", "merged_at": ts(i.pr.mergedAt)}
	}
	return o
}

func (f *Fake) subIssuesSummary(s *repoState, i *issue) obj {
	done := 0
	for _, n := range i.subIssues {
		if s.issue(n).state == "closed" {
			done++
		}
	}
	pct := 0
	if len(i.subIssues) > 0 {
		pct = done * 100 / len(i.subIssues)
	}
	return obj{"total": len(i.subIssues), "completed": done, "percent_completed": pct}
}

func (f *Fake) dependencySummary(s *repoState, i *issue) obj {
	openBlockers := 0
	for _, n := range i.blockedBy {
		if s.issue(n).state == "open" {
			openBlockers++
		}
	}
	blocking, openBlocking := s.blocking(i)
	return obj{"blocked_by": openBlockers, "total_blocked_by": len(i.blockedBy),
		"blocking": openBlocking, "total_blocking": len(blocking)}
}

// blocking lists the issues i blocks, and how many of them are open.
func (s *repoState) blocking(i *issue) ([]*issue, int) {
	var out []*issue
	open := 0
	for _, other := range s.issues {
		for _, n := range other.blockedBy {
			if n == i.number {
				out = append(out, other)
				if other.state == "open" {
					open++
				}
			}
		}
	}
	return out, open
}

func (f *Fake) commentJSON(s *repoState, c *comment) obj {
	api := f.api(s) + "/issues/comments/" + itoa(c.id)
	var via any
	if c.via != nil {
		via = f.appJSON(c.via)
	}
	return obj{
		"url": api, "html_url": s.commentURL(c),
		"issue_url": f.api(s) + "/issues/" + itoa(int64(c.issue)), "id": c.id, "node_id": nodeID("IssueComment", c.id),
		"user": f.userJSON(c.author), "created_at": ts(c.created), "updated_at": ts(c.updated),
		"author_association": f.association(s, c.author), "body": c.body,
		"reactions": reactionsJSON(api+"/reactions", c.reactions), "performed_via_github_app": via,
	}
}

// commentURL is a comment's page: under /pull/ when its issue is a pull
// request, as GitHub links it.
func (s *repoState) commentURL(c *comment) string {
	kind := "/issues/"
	if i := s.issue(c.issue); i != nil && i.pr != nil {
		kind = "/pull/"
	}
	return "https://github.com/" + s.fullName + kind + itoa(int64(c.issue)) + "#issuecomment-" + itoa(c.id)
}

// emitIssue sends an issues event (extra merged into the payload), or the
// pull_request event of the same action when i is a pull request.
func (f *Fake) emitIssue(s *repoState, i *issue, action string, by *user, extra obj) {
	if !f.hooks.on {
		return
	}
	if i.pr != nil { // GitHub reports a pull request's changes as pull_request events
		f.emitPull(s, i, action, by, extra)
		return
	}
	p := obj{"issue": f.issueJSON(s, i)}
	for k, v := range extra {
		p[k] = v
	}
	f.emit(s, "issues", action, by, p)
}

// editChanges is the changes object of an edited event: the old value of
// each field that changed.
func editChanges(oldTitle, newTitle, oldBody, newBody string) obj {
	ch := obj{}
	if oldTitle != newTitle {
		ch["title"] = obj{"from": oldTitle}
	}
	if oldBody != newBody {
		ch["body"] = obj{"from": oldBody}
	}
	return ch
}
