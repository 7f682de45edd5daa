package app

import (
	"context"

	"github.com/aepgate/aepgate/app/verdict"
)

// answerer writes the App's answers to commands (gh.Installation).
type answerer interface {
	React(ctx context.Context, owner, repo string, commentID int64, content string) error
	Comment(ctx context.Context, owner, repo string, number int, body string) (int64, error)
	EditComment(ctx context.Context, owner, repo string, id int64, body string) error
	RequestReviews(ctx context.Context, owner, repo string, number int, logins []string) error
	CreateControlIssue(ctx context.Context, owner, repo, title, body string) (number int, url string, err error)
}

// answer reacts to comment or review id (👍 when a request in it was
// accepted, 👎 and one reply when one was refused) and records every
// request's outcome in the ledger: verdict.PlanAnswer decides it all from the
// evaluation, applyAnswer writes it. A redelivered event finds the reply
// already there; under in.once, an item answered before is left alone. It
// returns the item's thread, and whether the item asked for the status
// comment.
func (e *evaluator) answer(ctx context.Context, in evalInput, ev *verdict.Evaluation, id int64) (verdict.Thread, bool, error) {
	p, ok := verdict.PlanAnswer(in.origin(), ev, id)
	if !ok {
		return p.Thread, false, nil
	}
	if in.once && p.Answered != nil {
		if done, err := e.w.Has(ctx, p.Answered.Subject); err != nil || done {
			return p.Thread, false, err
		}
	}
	return p.Thread, p.Status, e.applyAnswer(ctx, in, p)
}

// applyAnswer writes an answer's plan: the ledger rows, the reactions, the
// reply, then the answered row.
func (e *evaluator) applyAnswer(ctx context.Context, in evalInput, p verdict.AnswerPlan) error {
	for _, r := range p.Rows {
		if err := e.w.Record(ctx, r); err != nil {
			return err
		}
	}
	for _, content := range p.React {
		if err := e.ans.React(ctx, in.owner, in.repo, p.Item, content); err != nil {
			return err
		}
	}
	if p.Reply != "" {
		if _, err := e.ans.Comment(ctx, in.owner, in.repo, p.Thread.Number, p.Reply); err != nil {
			return err
		}
	}
	if p.Answered != nil {
		return e.w.Record(ctx, *p.Answered)
	}
	return nil
}

// keepStatus writes the thread's one status comment as verdict.PlanStatus says:
// created when asked for (create), edited when it exists and no longer
// says what is true.
func (e *evaluator) keepStatus(ctx context.Context, in evalInput, ev *verdict.Evaluation, th verdict.Thread, create bool) error {
	edit, body, due := verdict.PlanStatus(ev, th, create)
	switch {
	case !due:
		return nil
	case edit == 0:
		_, err := e.ans.Comment(ctx, in.owner, in.repo, th.Number, body)
		return err
	}
	return e.ans.EditComment(ctx, in.owner, in.repo, edit, body)
}
