package route

import (
	"context"

	"github.com/aepgate/aepgate/app/closure"
	"github.com/aepgate/aepgate/app/deploy"
	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/app/verdict"
	pclosure "github.com/aepgate/aepgate/protocol/closure"
)

// Where is what a piece of work runs for: the repository and the delivery
// (or the sweep, or a fanout) that asked for it.
type Where struct {
	Installation int64
	Owner, Repo  string
	// Delivery is the webhook delivery's ID ("" for the sweep and
	// fanouts) and Event its event (the App names those two).
	Delivery, Event string
}

// FullName is the repository's "owner/name".
func (w Where) FullName() string { return w.Owner + "/" + w.Repo }

// Work is one typed piece of work a family derives from a delivery (or the
// sweep and fanouts produce): it asks its Runner to do it.
type Work interface {
	Run(ctx context.Context, r Runner, w Where) error
}

// Runner does each kind of work the table derives (the App's root): one
// method per kind, so that a new kind without a way to run it does not
// compile.
type Runner interface {
	JudgePR(ctx context.Context, w Where, j JudgePR) error
	Rejudge(ctx context.Context, w Where, j Rejudge) error
	JudgeOpen(ctx context.Context, w Where, j JudgeOpen) error
	AnswerOn(ctx context.Context, w Where, j AnswerOn) error
	CommentChanged(ctx context.Context, w Where, j CommentChanged) error
	JudgeRelease(ctx context.Context, w Where, j JudgeRelease) error
	ReadBack(ctx context.Context, w Where, j ReadBack) error
	JudgeQueued(ctx context.Context, w Where, j JudgeQueued) error
	RecordPush(ctx context.Context, w Where, j RecordPush) error
	JudgeClosure(ctx context.Context, w Where, j JudgeClosure) error
	CloseCommand(ctx context.Context, w Where, j CloseCommand) error
	JudgeDeploy(ctx context.Context, w Where, j JudgeDeploy) error
	JudgeDeploys(ctx context.Context, w Where, j JudgeDeploys) error
	JudgeIncrements(ctx context.Context, w Where, j JudgeIncrements) error
	KeepContract(ctx context.Context, w Where, j KeepContract) error
	HeldWork(ctx context.Context, w Where, j HeldWork) error
}

// RunAll runs each piece of work in order; the first error stops it.
func RunAll(ctx context.Context, r Runner, w Where, ws []Work) error {
	for _, x := range ws {
		if err := x.Run(ctx, r, w); err != nil {
			return err
		}
	}
	return nil
}

// Sweep is what the periodic sweep does for each repository: judge the
// open pull requests, verify the Latest release (GitHub sends no event
// when a release asset changes), read back recent merges, judge the
// deployments still waiting and the open increments.
func Sweep() []Work {
	return []Work{JudgeOpen{}, JudgeRelease{Latest: true}, ReadBack{Sweep: true}, JudgeDeploys{}, JudgeIncrements{Open: true}}
}

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

// Run implements Work.
func (j JudgePR) Run(ctx context.Context, r Runner, w Where) error { return r.JudgePR(ctx, w, j) }

// Rejudge is the coalesced form of a JudgePR: it asks for a rejudge job
// instead of judging at once (Coalesce).
type Rejudge JudgePR

// Run implements Work.
func (j Rejudge) Run(ctx context.Context, r Runner, w Where) error { return r.Rejudge(ctx, w, j) }

// JudgeOpen judges the repository's open pull requests that name a unit:
// only those whose unit Issue or Milestones (when set) affect, else all.
type JudgeOpen struct {
	Issue      int
	Milestones []int
}

// Run implements Work.
func (j JudgeOpen) Run(ctx context.Context, r Runner, w Where) error { return r.JudgeOpen(ctx, w, j) }

// AnswerOn answers a comment on an issue's conversation: the unit's issue
// (then its attempts are judged) or the control issue (then, if it
// changed a decision, every open pull request, coalesced).
type AnswerOn struct {
	Thread  int
	Control bool
	Answer  int64
	Witness *verdict.Witness
	// Once: as JudgePR's.
	Once bool
}

// Run implements Work.
func (j AnswerOn) Run(ctx context.Context, r Runner, w Where) error { return r.AnswerOn(ctx, w, j) }

// CommentChanged is a comment GitHub reported edited or deleted: it is
// recorded as tampering when it is a kept decision's source, and the
// conversation is judged again (on the control issue only for a kept one,
// or to refuse, once, a comment edited into a request).
type CommentChanged struct {
	ID         int64
	Change, By string
	// Then is what to judge again: a JudgePR or an AnswerOn, with an
	// answer only for a comment edited into a request; on the control
	// issue nil unless it is one (a kept decision's source is judged on
	// every pull request instead).
	Then    Work
	Control bool
}

// Run implements Work.
func (j CommentChanged) Run(ctx context.Context, r Runner, w Where) error {
	return r.CommentChanged(ctx, w, j)
}

// JudgeRelease verifies a release's closure: Tag's, or the Latest
// release's when Latest is set.
type JudgeRelease struct {
	Tag    string
	Latest bool
}

// Run implements Work.
func (j JudgeRelease) Run(ctx context.Context, r Runner, w Where) error {
	return r.JudgeRelease(ctx, w, j)
}

// ReadBack reads back a merge on the default branch (readback.Target).
type ReadBack readback.Target

// Run implements Work.
func (j ReadBack) Run(ctx context.Context, r Runner, w Where) error { return r.ReadBack(ctx, w, j) }

// JudgeQueued judges a merge queue's group commit for the pull request it
// queues.
type JudgeQueued MergeGroup

// Run implements Work.
func (j JudgeQueued) Run(ctx context.Context, r Runner, w Where) error {
	return r.JudgeQueued(ctx, w, j)
}

// RecordPush keeps who moved a branch to which commit, so the audit
// counts the pusher as an author of it; it runs before the delivery's
// other work. GitHub records no pusher on a commit, so the senders of
// pull_request opened and synchronize and of push are the only evidence
// of who put a commit on a pull request.
type RecordPush struct {
	SHA, Login string
}

// Run implements Work.
func (j RecordPush) Run(ctx context.Context, r Runner, w Where) error { return r.RecordPush(ctx, w, j) }

// JudgeClosure judges an issue's closure (issues.closed; app/closure).
type JudgeClosure closure.Closed

// Run implements Work.
func (j JudgeClosure) Run(ctx context.Context, r Runner, w Where) error {
	return r.JudgeClosure(ctx, w, j)
}

// KeepContract keeps Issue's contract from Body, the body an issues
// delivery GitHub signed carried (as opened, or before an edit), when the
// App keeps none yet (app/contract): the first judgement then starts from
// it, not from what a later edit left.
type KeepContract struct {
	Issue int
	Body  string
}

// Run implements Work.
func (j KeepContract) Run(ctx context.Context, r Runner, w Where) error {
	return r.KeepContract(ctx, w, j)
}

// CloseCommand is a created or edited comment on a unit's issue that may
// hold `/aep close <reason>` (app/closure keeps and acknowledges it).
type CloseCommand closure.Said

// Run implements Work.
func (j CloseCommand) Run(ctx context.Context, r Runner, w Where) error {
	return r.CloseCommand(ctx, w, j)
}

// JudgeDeploy keeps and judges one deployment protection request.
type JudgeDeploy deploy.Request

// Run implements Work.
func (j JudgeDeploy) Run(ctx context.Context, r Runner, w Where) error {
	return r.JudgeDeploy(ctx, w, j)
}

// JudgeDeploys judges the repository's pending deployment requests again:
// after a comment on the control issue (the owner's answer, a HOLD), and
// in the sweep, which first asks GitHub whether each still waits.
type JudgeDeploys struct{}

// Run implements Work.
func (j JudgeDeploys) Run(ctx context.Context, r Runner, w Where) error {
	return r.JudgeDeploys(ctx, w, j)
}

// JudgeIncrements judges milestones' increments (app/increment): the
// Milestones named, and every open one when Open is set (a readback on
// the default branch, a control-thread acceptance or demonstration, the
// sweep). ClosedBy is who closed Milestones[0] (milestone.closed);
// EditedBy who edited its description to EditedTo (milestone.edited, a
// GitHub-signed sender: an owner's edit may lower its kept definition).
type JudgeIncrements struct {
	Milestones []int
	Open       bool
	// AtMerge, with Open, judges only when a story was merged as it.
	AtMerge  string
	ClosedBy pclosure.Actor
	EditedBy pclosure.Actor `json:",omitzero"`
	EditedTo string         `json:",omitempty"`
}

// Run implements Work.
func (j JudgeIncrements) Run(ctx context.Context, r Runner, w Where) error {
	return r.JudgeIncrements(ctx, w, j)
}
