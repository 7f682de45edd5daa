package pull

import (
	"time"

	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/verdict"
)

// JudgePR judges one pull request's head; Answer is the comment or review
// whose requests it answers, Siblings asks for the unit's other open pull
// requests next (the conversation changed), Guesses are the units its
// body named in the payload.
type JudgePR struct {
	PR       int
	Guesses  []int
	Answer   int64
	Siblings bool
	Witness  *verdict.Witness
	// Once answers only if the ledger holds no answer yet (a comment
	// edited into a request).
	Once bool
}

// WorkKind implements route.Work.
func (JudgePR) WorkKind() string { return "JudgePR" }

// Rejudge is the coalesced form of a JudgePR: it asks for a rejudge job
// instead of judging at once (Coalesce).
type Rejudge JudgePR

// WorkKind implements route.Work.
func (Rejudge) WorkKind() string { return "Rejudge" }

// JudgeOpen judges the repository's open pull requests that name a unit:
// only those whose unit Issue or Milestones (when set) affect, else all.
type JudgeOpen struct {
	Issue      int
	Milestones []int
}

// WorkKind implements route.Work.
func (JudgeOpen) WorkKind() string { return "JudgeOpen" }

// MergeGroup is a merge queue's group commit and the pull request it
// queues: GitHub names the group's branch
// gh-readonly-queue/<base>/pr-<number>-<queued head SHA>.
type MergeGroup struct {
	GroupSHA, PRHead string
	PR               int
}

// JudgeQueued judges a merge queue's group commit for the pull request it
// queues.
type JudgeQueued MergeGroup

// WorkKind implements route.Work.
func (JudgeQueued) WorkKind() string { return "JudgeQueued" }

// RecordPush keeps who moved a branch to which commit, so the audit
// counts the pusher as an author of it; it runs before the delivery's
// other work. GitHub records no pusher on a commit, so the senders of
// pull_request opened and synchronize and of push are the only evidence
// of who put a commit on a pull request. At is the push's time as the
// delivery states it, GitHub's server time (pull_request's updated_at,
// push's repository.pushed_at; zero when it states none): who instructed
// an agent's push is judged by it, never by the commit's own dates, which
// the pusher writes.
type RecordPush struct {
	SHA, Login string
	At         time.Time
}

// WorkKind implements route.Work.
func (RecordPush) WorkKind() string { return "RecordPush" }

// Coalesce is the coalescing of the families whose requests to judge a
// pull request again may wait for the others like them (conversation,
// reviews, checks and workflow runs; a pull request's own events, a new
// head or an edited body, are judged at once): a JudgePR answering
// nothing, or answering a created comment that carries no request (no
// line starting with a slash, no fenced block), so that nothing but the
// judgement is owed to it, becomes its Rejudge.
func Coalesce(x route.Work) (route.Work, bool) {
	j, ok := x.(JudgePR)
	switch {
	case !ok:
		return nil, false
	case j.Answer == 0 && j.Witness == nil:
		return Rejudge(j), true
	case j.Witness == nil || j.Witness.Comment.ID != j.Answer || route.MayRequest(j.Witness.Comment.Body):
		return nil, false
	}
	return Rejudge(j), true
}

// RecordAttempt keeps, in the attempt index, which unit pull request PR
// names (0: none or several) and whether it is open, from a pull_request
// delivery; it runs before the delivery's other work.
type RecordAttempt struct {
	PR, Unit int
	Open     bool
}

// WorkKind implements route.Work.
func (RecordAttempt) WorkKind() string { return "RecordAttempt" }
