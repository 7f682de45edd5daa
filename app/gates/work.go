package gates

import (
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/verdict"
)

// AnswerOn answers a comment on an issue's conversation: the unit's issue
// (then its attempts are judged) or the control issue (then, if it
// changed a decision, every open pull request, coalesced).
type AnswerOn struct {
	Thread  int
	Control bool
	Answer  int64
	Witness *verdict.Witness
	// Once: as pull.JudgePR's.
	Once bool
}

// WorkKind implements route.Work.
func (AnswerOn) WorkKind() string { return "AnswerOn" }

// CommentChanged is a comment GitHub reported edited or deleted: it is
// recorded as tampering when it is a kept decision's source, and the
// conversation is judged again (on the control issue only for a kept one,
// or to refuse, once, a comment edited into a request).
type CommentChanged struct {
	ID         int64
	Change, By string
	// Then is what to judge again: a pull.JudgePR or an AnswerOn, with an
	// answer only for a comment edited into a request; on the control
	// issue nil unless it is one (a kept decision's source is judged on
	// every pull request instead).
	Then    route.Work
	Control bool
}

// WorkKind implements route.Work.
func (CommentChanged) WorkKind() string { return "CommentChanged" }
