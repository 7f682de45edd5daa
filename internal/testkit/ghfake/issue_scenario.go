package ghfake

import (
	"fmt"
	"strings"
	"time"
)

// CreateMilestone creates an open milestone.
func (r *Repo) CreateMilestone(title, description string) *Milestone {
	defer r.f.flush()
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	m := r.f.newMilestone(r.s, r.s.owner, title, description)
	return &Milestone{r: r, n: m.number}
}

func (f *Fake) newMilestone(s *repoState, by *user, title, description string) *milestone {
	now := f.clock()
	m := &milestone{number: len(s.milestones) + 1, id: f.nextID(), title: title, description: description,
		state: "open", creator: by, created: now, updated: now}
	s.milestones = append(s.milestones, m)
	f.emit(s, "milestone", "created", by, obj{"milestone": f.milestoneJSON(s, m)})
	return m
}

// Close closes the milestone.
func (m *Milestone) Close() {
	defer m.r.f.flush()
	m.r.f.mu.Lock()
	defer m.r.f.mu.Unlock()
	ms := m.r.s.milestone(m.n)
	ms.state, ms.closed, ms.updated = "closed", m.r.f.clock(), m.r.f.clock()
	m.r.f.emit(m.r.s, "milestone", "closed", m.r.s.owner, obj{"milestone": m.r.f.milestoneJSON(m.r.s, ms)})
}

// Label creates (or recolours) a label; a new one emits label.created.
func (r *Repo) Label(name, color string) {
	defer r.f.flush()
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	before := len(r.s.labels)
	l := r.f.ensureLabel(r.s, name)
	l.color = color
	if len(r.s.labels) > before {
		r.f.emit(r.s, "label", "created", r.s.owner, obj{"label": r.f.labelJSON(r.s, l)})
	}
}

// OpenIssue opens an issue by author.
func (r *Repo) OpenIssue(author, title, body string, opts ...IssueOption) *Issue {
	defer r.f.flush()
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	i := r.f.newIssue(r.s, r.f.ensureUser(author), title, body, opts)
	r.f.emitOpened(r.s, i)
	return &Issue{r: r, n: i.number}
}

// emitOpened sends issues.opened, then labeled and milestoned for what the
// issue was opened with, as GitHub does.
func (f *Fake) emitOpened(s *repoState, i *issue) {
	f.emitIssue(s, i, "opened", i.author, nil)
	for _, l := range i.labels {
		f.emitIssue(s, i, "labeled", i.author, obj{"label": f.labelJSON(s, f.ensureLabel(s, l))})
	}
	if m := s.milestone(i.milestone); m != nil {
		f.emitIssue(s, i, "milestoned", i.author, obj{"milestone": f.milestoneJSON(s, m)})
	}
	f.emitAssigned(s, i, i.author, i.assignees)
}

// Issue returns the handle of issue (or pull request) n, or nil.
func (r *Repo) Issue(n int) *Issue {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	if r.s.issue(n) == nil {
		return nil
	}
	return &Issue{r: r, n: n}
}

// do runs fn on the issue under the lock and sends what it emitted after.
func (i *Issue) do(fn func(f *Fake, s *repoState, is *issue)) {
	f := i.r.f
	defer f.flush()
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(f, i.r.s, i.r.s.issue(i.n))
}

// Comment adds a comment by author and returns its handle.
func (i *Issue) Comment(author, body string) *Comment {
	var id int64
	i.do(func(f *Fake, s *repoState, is *issue) {
		id = f.addComment(s, is, f.ensureUser(author), body).id
	})
	return &Comment{r: i.r, id: id}
}

func (f *Fake) addComment(s *repoState, is *issue, by *user, body string) *comment {
	return f.addCommentVia(s, is, by, body, nil)
}

// addCommentVia adds a comment made through App via's installation (nil:
// by a person), which GitHub reports as performed_via_github_app.
func (f *Fake) addCommentVia(s *repoState, is *issue, by *user, body string, via *App) *comment {
	now := f.clock()
	c := &comment{id: f.nextID(), issue: is.number, body: body, author: by, created: now, updated: now, via: via}
	is.comments = append(is.comments, c)
	is.updated = now
	f.mention(s, is, by, body)
	f.emit(s, "issue_comment", "created", by, obj{"issue": f.issueJSON(s, is), "comment": f.commentJSON(s, c)})
	return c
}

// Edit changes the comment's body (updated_at moves; created_at stays).
func (c *Comment) Edit(by, body string) {
	f := c.r.f
	defer f.flush()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.editComment(c.r.s, c.id, f.ensureUser(by), body)
}

func (f *Fake) editComment(s *repoState, id int64, by *user, body string) {
	is, cm := s.comment(id)
	old := cm.body
	cm.body, cm.updated, cm.edited, cm.editor = body, f.clock(), f.clock(), by
	f.mention(s, is, by, body)
	f.emit(s, "issue_comment", "edited", by, obj{"issue": f.issueJSON(s, is), "comment": f.commentJSON(s, cm),
		"changes": obj{"body": obj{"from": old}}})
}

// React adds a reaction (+1, -1, laugh, confused, heart, hooray, rocket,
// eyes) by login to the comment. GitHub sends no webhook for reactions.
func (c *Comment) React(login, content string) {
	f := c.r.f
	f.mu.Lock()
	defer f.mu.Unlock()
	_, cm := c.r.s.comment(c.id)
	cm.reactions = append(cm.reactions, &reaction{id: f.nextID(), content: content, user: f.ensureUser(login), created: f.clock()})
}

// React adds a reaction by login to the issue.
func (i *Issue) React(login, content string) {
	i.do(func(f *Fake, _ *repoState, is *issue) {
		is.reactions = append(is.reactions, &reaction{id: f.nextID(), content: content, user: f.ensureUser(login), created: f.clock()})
	})
}

// Edit replaces the issue's body (issues.edited; pull_request.edited for a
// pull request), with changes.body.from the old body.
func (i *Issue) Edit(by, body string) {
	i.do(func(f *Fake, s *repoState, is *issue) {
		old := is.body
		f.editBody(is, f.ensureUser(by), body)
		f.mention(s, is, f.ensureUser(by), body)
		f.emitIssue(s, is, "edited", f.ensureUser(by), obj{"changes": editChanges(is.title, is.title, old, body)})
	})
}

// EditTitle replaces the issue's (or pull request's) title, with
// changes.title.from the old title.
func (i *Issue) EditTitle(by, title string) {
	i.do(func(f *Fake, s *repoState, is *issue) {
		old := is.title
		is.title, is.updated = title, f.clock()
		f.emitIssue(s, is, "edited", f.ensureUser(by), obj{"changes": editChanges(old, title, is.body, is.body)})
	})
}

// Close closes the issue as completed.
func (i *Issue) Close(by string) {
	i.do(func(f *Fake, s *repoState, is *issue) {
		was := is.state
		f.closeIssue(s, is, f.ensureUser(by), "completed")
		if is.pr != nil && was == "open" { // a pull request closes as pull_request.closed
			f.emitPull(s, is, "closed", f.ensureUser(by), nil)
		}
	})
}

func (f *Fake) closeIssue(s *repoState, is *issue, by *user, reason string) {
	if is.state == "closed" {
		return
	}
	is.state, is.stateReason, is.closed, is.closedBy, is.updated = "closed", reason, f.clock(), by, f.clock()
	s.mergeClosed(is)
	if is.pr == nil {
		f.emitIssue(s, is, "closed", by, nil)
	}
}

// Reopen reopens the issue.
func (i *Issue) Reopen(by string) {
	i.do(func(f *Fake, s *repoState, is *issue) {
		is.state, is.stateReason, is.closed, is.updated = "open", "reopened", time.Time{}, f.clock()
		f.emitIssue(s, is, "reopened", f.ensureUser(by), nil)
	})
}

// AddLabels labels the issue.
func (i *Issue) AddLabels(by string, names ...string) {
	i.do(func(f *Fake, s *repoState, is *issue) {
		for _, n := range names {
			f.addLabel(s, is, f.ensureUser(by), n)
		}
	})
}

func (f *Fake) addLabel(s *repoState, is *issue, by *user, name string) {
	l := f.ensureLabel(s, name)
	for _, have := range is.labels {
		if strings.EqualFold(have, name) {
			return
		}
	}
	is.labels = append(is.labels, l.name)
	is.updated = f.clock()
	is.labeled = append(is.labeled, &labelEvent{id: f.nextID(), name: l.name, actor: by, at: is.updated})
	f.emitIssue(s, is, "labeled", by, obj{"label": f.labelJSON(s, l)})
}

// SetMilestone moves the issue into m (nil removes it).
func (i *Issue) SetMilestone(by string, m *Milestone) {
	i.do(func(f *Fake, s *repoState, is *issue) {
		n := 0
		if m != nil {
			n = m.n
		}
		f.setMilestone(s, is, f.ensureUser(by), n)
	})
}

func (f *Fake) setMilestone(s *repoState, is *issue, by *user, n int) {
	old := is.milestone
	if old == n {
		return
	}
	is.milestone, is.updated = n, f.clock()
	if n == 0 {
		f.emitIssue(s, is, "demilestoned", by, obj{"milestone": f.milestoneJSON(s, s.milestone(old))})
		return
	}
	f.emitIssue(s, is, "milestoned", by, obj{"milestone": f.milestoneJSON(s, s.milestone(n))})
}

// BlockedBy records that blocker blocks the issue (GitHub's native issue
// dependencies).
func (i *Issue) BlockedBy(blocker *Issue) {
	i.do(func(f *Fake, s *repoState, is *issue) {
		if err := f.addBlocker(s, is, s.issue(blocker.n)); err != nil {
			panic("ghfake: BlockedBy: " + err.Error())
		}
	})
}

func (f *Fake) addBlocker(s *repoState, is, blocker *issue) error {
	if blocker == nil || blocker == is {
		return fmt.Errorf("an issue cannot block itself")
	}
	for _, n := range is.blockedBy {
		if n == blocker.number {
			return fmt.Errorf("#%d already blocks #%d", blocker.number, is.number)
		}
	}
	is.blockedBy = append(is.blockedBy, blocker.number)
	is.updated = f.clock()
	return nil
}

// AddSubIssue makes child a sub-issue of the issue.
func (i *Issue) AddSubIssue(child *Issue) {
	i.do(func(f *Fake, s *repoState, is *issue) {
		if err := f.addSubIssue(s, is, s.issue(child.n), false); err != nil {
			panic("ghfake: AddSubIssue: " + err.Error())
		}
	})
}
