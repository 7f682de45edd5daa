package ghfake

import (
	"slices"
	"strings"
	"time"
)

// BranchRules is what a branch's rulesets ask of a merge into it, as far as
// the fake models them: a merge queue, and the checks that must succeed on a
// pull request's head.
type BranchRules struct {
	// MergeQueue makes merges into the branch go through a merge queue:
	// enqueuePullRequest adds to it, and a REST merge is refused with 405
	// "Changes must be made through the merge queue", as on GitHub.
	MergeQueue bool
	// RequiredChecks names the check runs (or commit status contexts) that
	// must have succeeded on the head before a pull request is enqueued, and
	// that auto-merge waits for.
	RequiredChecks []string
}

// mergeState is a repository's merge settings and merge queues.
type mergeState struct {
	rules            map[string]BranchRules   // by branch
	autoMergeAllowed bool                     // the repository's allow_auto_merge
	queues           map[string][]*queueEntry // by base branch, front first
}

// queueEntry is one pull request in a merge queue.
type queueEntry struct {
	id       int64
	is       *issue
	head     string // the head it was enqueued at
	base     string // the base branch's head when enqueued
	enqueuer *user
	enqueued time.Time
	jump     bool
}

// autoMerge is a pull request's auto-merge request.
type autoMerge struct {
	method       MergeMethod
	by           *user
	at           time.Time
	expectedHead string
	headline     string
	body         string
	email        string
}

// QueueEntry is one merge queue entry, as a test reads it back.
type QueueEntry struct {
	PR         int    // the pull request's number
	Head       string // the head SHA it was enqueued at
	Base       string // the base branch's head when it was enqueued
	Enqueuer   string // login of who enqueued it (an App as "slug[bot]")
	Jump       bool   // it was put at the front
	Position   int    // 1 for the front of the queue
	EnqueuedAt time.Time
}

// AutoMergeView is a pull request's auto-merge request, as a test reads it
// back.
type AutoMergeView struct {
	Method       MergeMethod
	EnabledBy    string // login (an App as "slug[bot]")
	EnabledAt    time.Time
	ExpectedHead string // the expectedHeadOid it was enabled with, if any
}

// SetBranchRules sets what merges into branch require (a merge queue,
// required checks); the zero value removes every rule and, with it, the
// branch's merge queue.
func (r *Repo) SetBranchRules(branch string, rules BranchRules) {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	m := &r.s.merging
	if m.rules == nil {
		m.rules = map[string]BranchRules{}
	}
	rules.RequiredChecks = slices.Clone(rules.RequiredChecks)
	m.rules[branch] = rules
	if !rules.MergeQueue {
		delete(m.queues, branch)
	}
}

// AllowAutoMerge sets the repository's "Allow auto-merge" setting (off by
// default, as on GitHub); enablePullRequestAutoMerge is refused without it.
func (r *Repo) AllowAutoMerge(on bool) {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	r.s.merging.autoMergeAllowed = on
}

// MergeQueue lists branch's merge queue, front first (nil when it has no
// queue or the queue is empty).
func (r *Repo) MergeQueue(branch string) []QueueEntry {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	var out []QueueEntry
	for i, e := range r.s.merging.queues[branch] {
		out = append(out, QueueEntry{PR: e.is.number, Head: e.head, Base: e.base, Enqueuer: e.enqueuer.login,
			Jump: e.jump, Position: i + 1, EnqueuedAt: e.enqueued})
	}
	return out
}

// AutoMerge returns the pull request's auto-merge request, or nil.
func (p *PR) AutoMerge() *AutoMergeView {
	p.r.f.mu.Lock()
	defer p.r.f.mu.Unlock()
	am := p.r.s.issue(p.n).pr.autoMerge
	if am == nil {
		return nil
	}
	return &AutoMergeView{Method: am.method, EnabledBy: am.by.login, EnabledAt: am.at, ExpectedHead: am.expectedHead}
}

// queueBot is the account GitHub's merge queue merges as.
const queueBot = "github-merge-queue[bot]"

// MergeFromQueue merges the pull request at the front of branch's merge
// queue at the head it was enqueued with, as GitHub's merge queue does once
// its group passed (merged by "github-merge-queue[bot]", a merge commit), and
// returns the merge SHA. The fake builds no merge group and sends no
// merge_group event. An empty queue or a failed merge is an error.
func (r *Repo) MergeFromQueue(branch string) (string, error) {
	defer r.f.flush()
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	q := r.s.merging.queues[branch]
	if len(q) == 0 {
		return "", &mergeError{405, "the merge queue of " + branch + " is empty"}
	}
	e := q[0]
	return r.f.merge(r.s, e.is, r.f.ensureUser(queueBot), MergeCommit, e.head, "")
}

// RunAutoMerge acts on every open pull request whose auto-merge is enabled
// and whose required checks now succeed, as GitHub does when they complete:
// on a branch with a merge queue it is enqueued (by whoever enabled
// auto-merge), elsewhere merged with the requested method by them. It
// returns the numbers of the pull requests it merged or enqueued.
func (r *Repo) RunAutoMerge() []int {
	defer r.f.flush()
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	s := r.s
	var done []int
	for _, is := range s.issues {
		p := is.pr
		if p == nil || p.autoMerge == nil || is.state != "open" || !s.checksPass(p) || !s.mergeable(p) {
			continue
		}
		am := p.autoMerge
		if s.merging.rules[p.baseRef].MergeQueue {
			p.autoMerge = nil
			r.f.enqueue(s, is, am.by, false)
			done = append(done, is.number)
			continue
		}
		msg := strings.TrimSpace(am.headline + "\n\n" + am.body)
		if _, err := r.f.merge(s, is, am.by, am.method, "", msg); err == nil {
			done = append(done, is.number)
		}
	}
	return done
}

// checksPass reports whether every check the base branch requires has
// succeeded on the pull request's head: its newest check run of that name
// concluded success, neutral or skipped, or its newest commit status of that
// context is success.
func (s *repoState) checksPass(p *pull) bool {
	for _, name := range s.merging.rules[p.baseRef].RequiredChecks {
		if !s.checkPassed(p.headSHA, name) {
			return false
		}
	}
	return true
}

func (s *repoState) checkPassed(sha, name string) bool {
	var run *checkRun
	for _, cr := range s.checks.runs {
		if cr.headSHA == sha && cr.name == name {
			run = cr
		}
	}
	if run != nil {
		return run.status == "completed" && slices.Contains([]string{"success", "neutral", "skipped"}, run.conclusion)
	}
	var st *commitStatus
	for _, cs := range s.statuses {
		if cs.sha == sha && cs.context == name {
			st = cs
		}
	}
	return st != nil && st.state == "success"
}

// enqueue adds a pull request to its base branch's queue, at the front when
// jump; callers hold mu and have checked it may be.
func (f *Fake) enqueue(s *repoState, is *issue, by *user, jump bool) *queueEntry {
	m := &s.merging
	if m.queues == nil {
		m.queues = map[string][]*queueEntry{}
	}
	p := is.pr
	e := &queueEntry{id: f.nextID(), is: is, head: p.headSHA, base: s.refs["refs/heads/"+p.baseRef], enqueuer: by, enqueued: f.clock(), jump: jump}
	q := m.queues[p.baseRef]
	if jump {
		m.queues[p.baseRef] = append([]*queueEntry{e}, q...)
	} else {
		m.queues[p.baseRef] = append(q, e)
	}
	return e
}

// queued returns the pull request's entry in its base branch's queue and
// its position (1 at the front), or nil.
func (s *repoState) queued(is *issue) (*queueEntry, int) {
	for i, e := range s.merging.queues[is.pr.baseRef] {
		if e.is == is {
			return e, i + 1
		}
	}
	return nil, 0
}

// dequeue takes the pull request out of its base branch's queue.
func (s *repoState) dequeue(is *issue) {
	if is.pr == nil || len(s.merging.queues[is.pr.baseRef]) == 0 {
		return
	}
	b := is.pr.baseRef
	s.merging.queues[b] = slices.DeleteFunc(s.merging.queues[b], func(e *queueEntry) bool { return e.is == is })
}

// headMoved is what a push to an open pull request's head does to merging,
// as on GitHub: the pull request leaves the merge queue, and its auto-merge
// is disabled when the pusher may not write to the repository.
func (s *repoState) headMoved(is *issue, by *user) {
	s.dequeue(is)
	if is.pr.autoMerge != nil && !s.canWrite(by) {
		is.pr.autoMerge = nil
	}
}

// mergeClosed clears a closed or merged pull request's queue entry and
// auto-merge request.
func (s *repoState) mergeClosed(is *issue) {
	if is.pr != nil {
		s.dequeue(is)
		is.pr.autoMerge = nil
	}
}

// canWrite reports whether u may push to the repository: its owner, an App's
// bot, or a collaborator with write access or more.
func (s *repoState) canWrite(u *user) bool {
	if u == nil {
		return false
	}
	if u == s.owner || u.typ == "Bot" {
		return true
	}
	return level(userLevel(s.perms[strings.ToLower(u.login)])) >= 2
}
