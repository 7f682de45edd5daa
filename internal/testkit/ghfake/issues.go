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
	assignments []*assignment // assigned and unassigned events, oldest first (assign.go)
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
	xrefs       []*xref       // cross-references to this issue, oldest first
	labeled     []*labelEvent // labeled events, oldest first (graphql_timeline.go)
	forcePushes []*forcePush  // force pushes of a pull request's head, oldest first (graphql_timeline.go)
	pr          *pull
	pinned      bool // pinned to the repository's issue list (graphql_pin.go)
	// edited and editor are the body's last edit (zero and nil until
	// edited); edits its revisions, oldest first (issue_edits.go).
	edited time.Time
	editor *user
	edits  []*contentEdit
}

type comment struct {
	id        int64
	issue     int
	body      string
	author    *user
	created   time.Time
	updated   time.Time
	edited    time.Time // last body edit; zero until edited
	editor    *user     // who made the last edit; nil until edited
	via       *App      // the App whose installation token made it (performed_via_github_app)
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
	f.mention(s, i, by, body)
	return i
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
