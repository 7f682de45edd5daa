package ghfake

import (
	"fmt"
	"strings"
	"time"
)

// MergeMethod is how a pull request is merged.
type MergeMethod string

// The three merge methods GitHub offers.
const (
	MergeCommit MergeMethod = "merge"
	Squash      MergeMethod = "squash"
	Rebase      MergeMethod = "rebase"
)

// pull is the pull-request half of an issue.
type pull struct {
	headRef   string
	baseRef   string
	headSHA   string // follows the head branch while open
	baseSHA   string // the base head when last synchronised; frozen once closed
	draft     bool
	merged    bool
	mergedAt  time.Time
	mergedBy  *user
	mergeSHA  string
	reviews   []*review
	requested []*user
	autoMerge *autoMerge // enabled auto-merge, or nil (merge_queue.go)
}

type review struct {
	id        int64
	user      *user
	body      string
	state     string // APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED, PENDING
	commitID  string
	created   time.Time
	submitted time.Time // zero while PENDING
	edited    time.Time // last body edit; zero until edited
	comments  []*reviewComment
}

// reviewComment is a comment a review made on a line of a file.
type reviewComment struct {
	id      int64
	path    string
	body    string
	created time.Time
}

// ReviewComment submits a COMMENTED review by login on the current head
// with no body and one comment on path saying body (a review comment). It
// returns the review ID. Only GraphQL's PullRequestReview.comments
// serves the comment.
func (p *PR) ReviewComment(login, path, body string) int64 {
	var id int64
	p.do(func(f *Fake, s *repoState, is *issue) {
		by, now := f.ensureUser(login), f.clock()
		rv := &review{id: f.nextID(), user: by, state: "COMMENTED", commitID: is.pr.headSHA, created: now, submitted: now}
		rv.comments = []*reviewComment{{id: f.nextID(), path: path, body: body, created: now}}
		is.pr.reviews = append(is.pr.reviews, rv)
		f.mention(s, is, by, body)
		f.emit(s, "pull_request_review", "submitted", by, obj{"review": f.reviewJSON(s, is, rv), "pull_request": f.pullJSON(s, is)})
		id = rv.id
	})
	return id
}

// PR is the scenario handle of a pull request; its Issue half carries
// comments, labels and reactions.
type PR struct {
	*Issue
}

// webFlow is the committer GitHub uses for merges made on github.com.
var webFlow = Signature{Name: "GitHub", Email: "noreply@github.com"}

// OpenPR opens a pull request from head into base by author.
func (r *Repo) OpenPR(author, head, base, title, body string, opts ...IssueOption) *PR {
	defer r.f.flush()
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	i, err := r.f.openPull(r.s, r.f.ensureUser(author), head, base, title, body, false, opts)
	if err != nil {
		panic("ghfake: OpenPR: " + err.Error())
	}
	return &PR{Issue: &Issue{r: r, n: i.number}}
}

// openPull validates branches and stores the pull request; callers hold mu.
func (f *Fake) openPull(s *repoState, by *user, head, base, title, body string, draft bool, opts []IssueOption) (*issue, error) {
	hs, bs := s.refs["refs/heads/"+head], s.refs["refs/heads/"+base]
	switch {
	case hs == "":
		return nil, fmt.Errorf("head branch %q does not exist", head)
	case bs == "":
		return nil, fmt.Errorf("base branch %q does not exist", base)
	case hs == bs || s.git.ancestors(bs)[hs]:
		return nil, fmt.Errorf("no commits between %s and %s", base, head)
	}
	for _, other := range s.issues {
		if p := other.pr; p != nil && other.state == "open" && p.headRef == head && p.baseRef == base {
			return nil, fmt.Errorf("a pull request already exists for %s:%s", s.owner.login, head)
		}
	}
	i := f.newIssue(s, by, title, body, opts)
	i.pr = &pull{headRef: head, baseRef: base, headSHA: hs, baseSHA: bs, draft: draft}
	f.emitPull(s, i, "opened", by, nil)
	return i, nil
}

// PR returns the handle of pull request n, or nil.
func (r *Repo) PR(n int) *PR {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	if i := r.s.issue(n); i == nil || i.pr == nil {
		return nil
	}
	return &PR{Issue: &Issue{r: r, n: n}}
}

func (p *PR) do(fn func(f *Fake, s *repoState, is *issue)) { p.Issue.do(fn) }

// Head is the pull request's head SHA.
func (p *PR) Head() string {
	p.r.f.mu.Lock()
	defer p.r.f.mu.Unlock()
	return p.r.s.issue(p.n).pr.headSHA
}

// Commit pushes a commit to the head branch (a synchronize event) by the
// pull request's author, returning its SHA.
func (p *PR) Commit(message string, files map[string]string) string {
	var sha string
	p.do(func(f *Fake, s *repoState, is *issue) {
		sha = f.commitLocked(s, is.pr.headRef, is.author, message, files)
	})
	return sha
}

// SubmitReview submits a review by login on the current head: state is
// APPROVED, CHANGES_REQUESTED or COMMENTED (or APPROVE, REQUEST_CHANGES,
// COMMENT). It returns the review ID.
func (p *PR) SubmitReview(login, state, body string) int64 {
	return p.SubmitReviewAt(login, state, body, "")
}

// SubmitReviewAt is SubmitReview bound to commitID ("" for the head).
func (p *PR) SubmitReviewAt(login, state, body, commitID string) int64 {
	var id int64
	p.do(func(f *Fake, s *repoState, is *issue) {
		rv, err := f.addReview(s, is, f.ensureUser(login), reviewState(state), body, commitID)
		if err != nil {
			panic("ghfake: SubmitReview: " + err.Error())
		}
		id = rv.id
	})
	return id
}

// reviewState maps API events to stored states.
func reviewState(s string) string {
	switch strings.ToUpper(s) {
	case "APPROVE", "APPROVED":
		return "APPROVED"
	case "REQUEST_CHANGES", "CHANGES_REQUESTED":
		return "CHANGES_REQUESTED"
	case "COMMENT", "COMMENTED":
		return "COMMENTED"
	case "", "PENDING":
		return "PENDING"
	}
	return ""
}

func (f *Fake) addReview(s *repoState, is *issue, by *user, state, body, commitID string) (*review, error) {
	switch {
	case state == "":
		return nil, fmt.Errorf("unknown review event")
	case by == is.author && (state == "APPROVED" || state == "CHANGES_REQUESTED"):
		return nil, fmt.Errorf("can not %s your own pull request", map[string]string{"APPROVED": "approve", "CHANGES_REQUESTED": "request changes on"}[state])
	case state != "APPROVED" && state != "PENDING" && body == "":
		return nil, fmt.Errorf("body is required for %s", state)
	}
	if commitID == "" {
		commitID = is.pr.headSHA
	}
	if s.git.commits[commitID] == nil {
		return nil, fmt.Errorf("commit_id %s is not part of the pull request", commitID)
	}
	rv := &review{id: f.nextID(), user: by, body: body, state: state, commitID: commitID, created: f.clock()}
	is.pr.reviews = append(is.pr.reviews, rv)
	if state != "PENDING" {
		rv.submitted = f.clock()
		f.mention(s, is, by, body)
		is.pr.requested = removeUser(is.pr.requested, by)
		f.emit(s, "pull_request_review", "submitted", by, obj{"review": f.reviewJSON(s, is, rv), "pull_request": f.pullJSON(s, is)})
	}
	return rv, nil
}

func removeUser(us []*user, u *user) []*user {
	var out []*user
	for _, x := range us {
		if x != u {
			out = append(out, x)
		}
	}
	return out
}

// DismissReview dismisses review id with message.
func (p *PR) DismissReview(by string, id int64, message string) {
	p.do(func(f *Fake, s *repoState, is *issue) {
		for _, rv := range is.pr.reviews {
			if rv.id == id {
				rv.state = "DISMISSED"
				f.emit(s, "pull_request_review", "dismissed", f.ensureUser(by), obj{"review": f.reviewJSON(s, is, rv), "pull_request": f.pullJSON(s, is)})
			}
		}
	})
}

// RequestReviewers asks logins (who need write access) for a review.
func (p *PR) RequestReviewers(by string, logins ...string) {
	p.do(func(f *Fake, s *repoState, is *issue) {
		if err := f.requestReviewers(s, is, f.ensureUser(by), logins); err != nil {
			panic("ghfake: RequestReviewers: " + err.Error())
		}
	})
}

func (f *Fake) requestReviewers(s *repoState, is *issue, by *user, logins []string) error {
	for _, l := range logins {
		u := f.ensureUser(l)
		if u == is.author {
			return fmt.Errorf("Review cannot be requested from pull request author.")
		}
		if level(userLevel(s.perms[strings.ToLower(l)])) < 2 && u != s.owner {
			return fmt.Errorf("Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the %s repository.", s.fullName)
		}
	}
	for _, l := range logins {
		u := f.ensureUser(l)
		if len(removeUser(is.pr.requested, u)) == len(is.pr.requested) {
			is.pr.requested = append(is.pr.requested, u)
			f.emitPull(s, is, "review_requested", by, obj{"requested_reviewer": f.userJSON(u)})
		}
	}
	return nil
}

// MarkReady takes the pull request out of draft.
func (p *PR) MarkReady(by string) {
	p.do(func(f *Fake, s *repoState, is *issue) {
		is.pr.draft = false
		f.emitPull(s, is, "ready_for_review", f.ensureUser(by), nil)
	})
}

// ClosePR closes the pull request without merging.
func (p *PR) ClosePR(by string) {
	p.do(func(f *Fake, s *repoState, is *issue) {
		f.closeIssue(s, is, f.ensureUser(by), "")
		f.emitPull(s, is, "closed", f.ensureUser(by), nil)
	})
}

// Merge merges the pull request as its repository's owner and returns the
// merge SHA; it panics when GitHub would refuse (conflict, closed, draft).
func (p *PR) Merge(method MergeMethod) string {
	sha, err := p.MergeBy(p.r.s.owner.login, method)
	if err != nil {
		panic("ghfake: Merge: " + err.Error())
	}
	return sha
}

// MergeBy merges the pull request as login with method.
func (p *PR) MergeBy(login string, method MergeMethod) (string, error) {
	var sha string
	var err error
	p.do(func(f *Fake, s *repoState, is *issue) {
		sha, err = f.merge(s, is, f.ensureUser(login), method, "", "")
	})
	return sha, err
}

// mergeError carries the status GitHub answers a refused merge with.
type mergeError struct {
	status int
	msg    string
}

func (e *mergeError) Error() string { return e.msg }
