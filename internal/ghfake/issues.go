package ghfake

import (
	"fmt"
	"strings"
	"time"
)

// issue is an issue or the issue half of a pull request (they share
// numbers, comments, labels and reactions, as on GitHub).
type issue struct {
	number      int
	id          int64
	title       string
	body        string
	state       string // open, closed
	stateReason string // completed, not_planned, reopened
	author      *user
	labels      []string
	milestone   int
	assignees   []*user
	locked      bool
	created     time.Time
	updated     time.Time
	closed      time.Time
	closedBy    *user
	comments    []*comment
	reactions   []*reaction
	blockedBy   []int // issue numbers in the same repository
	parent      int
	subIssues   []int
	pr          *pull
}

type comment struct {
	id        int64
	issue     int
	body      string
	author    *user
	created   time.Time
	updated   time.Time
	reactions []*reaction
}

type reaction struct {
	id      int64
	content string
	user    *user
	created time.Time
}

type milestone struct {
	number      int
	id          int64
	title       string
	description string
	state       string
	dueOn       time.Time
	creator     *user
	created     time.Time
	updated     time.Time
	closed      time.Time
}

type label struct {
	id          int64
	name        string
	color       string
	description string
}

// Issue is the scenario handle of an issue (or of a pull request's issue).
type Issue struct {
	r *Repo
	n int
}

// Milestone is the scenario handle of a milestone.
type Milestone struct {
	r *Repo
	n int
}

// Comment is the scenario handle of an issue or pull request comment.
type Comment struct {
	r  *Repo
	id int64
}

// IssueOption adjusts an issue or pull request as it is opened.
type IssueOption func(*issue)

// InMilestone puts the new issue in m.
func InMilestone(m *Milestone) IssueOption { return func(i *issue) { i.milestone = m.n } }

// WithLabels labels the new issue (labels are created on first use).
func WithLabels(names ...string) IssueOption {
	return func(i *issue) { i.labels = append(i.labels, names...) }
}

// Number is the issue's number.
func (i *Issue) Number() int { return i.n }

// ID is the issue's database ID (what REST dependency and sub-issue calls take).
func (i *Issue) ID() int64 {
	i.r.f.mu.Lock()
	defer i.r.f.mu.Unlock()
	return i.r.s.issue(i.n).id
}

// Number is the milestone's number.
func (m *Milestone) Number() int { return m.n }

// ID is the comment's database ID.
func (c *Comment) ID() int64 { return c.id }

var reactionContents = map[string]bool{"+1": true, "-1": true, "laugh": true, "confused": true,
	"heart": true, "hooray": true, "rocket": true, "eyes": true}

func (s *repoState) issue(n int) *issue {
	if n <= 0 || n > len(s.issues) {
		return nil
	}
	return s.issues[n-1]
}

func (s *repoState) issueByID(id int64) *issue {
	for _, i := range s.issues {
		if i.id == id {
			return i
		}
	}
	return nil
}

func (s *repoState) comment(id int64) (*issue, *comment) {
	for _, i := range s.issues {
		for _, c := range i.comments {
			if c.id == id {
				return i, c
			}
		}
	}
	return nil, nil
}

func (s *repoState) milestone(n int) *milestone {
	if n <= 0 || n > len(s.milestones) {
		return nil
	}
	return s.milestones[n-1]
}

// ensureLabel returns the label name, creating it (grey) on first use.
func (f *Fake) ensureLabel(s *repoState, name string) *label {
	for _, l := range s.labels {
		if strings.EqualFold(l.name, name) {
			return l
		}
	}
	l := &label{id: f.nextID(), name: name, color: "ededed"}
	s.labels = append(s.labels, l)
	return l
}

// newIssue stores an issue; callers hold mu.
func (f *Fake) newIssue(s *repoState, by *user, title, body string, opts []IssueOption) *issue {
	now := f.clock()
	i := &issue{number: len(s.issues) + 1, id: f.nextID(), title: title, body: body, state: "open",
		author: by, created: now, updated: now}
	for _, o := range opts {
		o(i)
	}
	for _, l := range i.labels {
		f.ensureLabel(s, l)
	}
	s.issues = append(s.issues, i)
	return i
}

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

// Label creates (or recolours) a label.
func (r *Repo) Label(name, color string) {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	r.f.ensureLabel(r.s, name).color = color
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
	now := f.clock()
	c := &comment{id: f.nextID(), issue: is.number, body: body, author: by, created: now, updated: now}
	is.comments = append(is.comments, c)
	is.updated = now
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
	cm.body, cm.updated = body, f.clock()
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

// Edit replaces the issue's body.
func (i *Issue) Edit(by, body string) {
	i.do(func(f *Fake, s *repoState, is *issue) {
		old := is.body
		is.body, is.updated = body, f.clock()
		f.emitIssue(s, is, "edited", f.ensureUser(by), obj{"changes": obj{"body": obj{"from": old}}})
	})
}

// Close closes the issue as completed.
func (i *Issue) Close(by string) {
	i.do(func(f *Fake, s *repoState, is *issue) { f.closeIssue(s, is, f.ensureUser(by), "completed") })
}

func (f *Fake) closeIssue(s *repoState, is *issue, by *user, reason string) {
	if is.state == "closed" {
		return
	}
	is.state, is.stateReason, is.closed, is.closedBy, is.updated = "closed", reason, f.clock(), by, f.clock()
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

// addSubIssue enforces GitHub's rules: one parent (unless replaced), at most
// 100 sub-issues (closed ones count) and no cycles.
func (f *Fake) addSubIssue(s *repoState, parent, child *issue, replace bool) error {
	switch {
	case child == nil || child == parent:
		return fmt.Errorf("an issue cannot be its own sub-issue")
	case child.parent != 0 && !replace:
		return fmt.Errorf("#%d already has a parent issue", child.number)
	case len(parent.subIssues) >= 100:
		return fmt.Errorf("#%d already has 100 sub-issues", parent.number)
	}
	for p := parent; p != nil; p = s.issue(p.parent) {
		if p == child {
			return fmt.Errorf("#%d is an ancestor of #%d", child.number, parent.number)
		}
	}
	if old := s.issue(child.parent); old != nil {
		old.subIssues = removeInt(old.subIssues, child.number)
	}
	child.parent = parent.number
	parent.subIssues = append(parent.subIssues, child.number)
	return nil
}

func removeInt(xs []int, x int) []int {
	out := xs[:0]
	for _, v := range xs {
		if v != x {
			out = append(out, v)
		}
	}
	return out
}
