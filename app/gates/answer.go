package gates

import (
	"context"

	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/verdict"
)

// answerItem answers the requests of comment or review id: a reaction (👍
// when a request in it was accepted, 👎 and one reply when one was
// refused) and every request's outcome in the ledger. verdict.PlanAnswer
// decides it all from the evaluation, writeAnswer writes it. A redelivered
// event finds the reply already there; under in.Once, an item answered
// before is left alone. It returns the item's thread, and whether the item
// asked for the status comment.
func (g *Gates) answerItem(ctx context.Context, in pull.Input, ev *verdict.Evaluation, id int64) (verdict.Thread, bool, error) {
	p, ok := verdict.PlanAnswer(in.Origin(), ev, id)
	if !ok {
		return p.Thread, false, nil
	}
	if in.Once && p.Answered != nil {
		if done, err := g.Ledger.Has(ctx, p.Answered.Subject); err != nil || done {
			return p.Thread, false, err
		}
	}
	return p.Thread, p.Status, g.writeAnswer(ctx, in, p)
}

// writeAnswer writes an answer's plan: the ledger rows, the reactions, the
// reply, then the answered row.
func (g *Gates) writeAnswer(ctx context.Context, in pull.Input, p verdict.AnswerPlan) error {
	for _, r := range p.Rows {
		if err := g.Ledger.Record(ctx, r); err != nil {
			return err
		}
	}
	for _, content := range p.React {
		if err := g.Reply.React(ctx, in.Owner, in.Repo, p.Item, content); err != nil {
			return err
		}
	}
	if p.Reply != "" {
		if _, err := g.Reply.Comment(ctx, in.Owner, in.Repo, p.Thread.Number, p.Reply); err != nil {
			return err
		}
	}
	if p.Answered != nil {
		return g.Ledger.Record(ctx, *p.Answered)
	}
	return nil
}

// keepStatus writes the thread's one status comment as verdict.PlanStatus
// says: created when asked for (create), edited when it exists and no
// longer says what is true.
func (g *Gates) keepStatus(ctx context.Context, in pull.Input, ev *verdict.Evaluation, th verdict.Thread, create bool) error {
	edit, body, due := verdict.PlanStatus(ev, th, create)
	switch {
	case !due:
		return nil
	case edit == 0:
		_, err := g.Reply.Comment(ctx, in.Owner, in.Repo, th.Number, body)
		return err
	}
	return g.Reply.EditComment(ctx, in.Owner, in.Repo, edit, body)
}
