package gates

import (
	"context"
	"time"

	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/verdict"
)

// maxRepairs bounds the comments one sweep judgement answers.
const maxRepairs = 20

// repairAnswers answers, in the sweep, the recent comments and reviews
// with requests whose answer the ledger does not hold (their webhook was
// lost): those GitHub may still redeliver (Gates.Redelivered). A gate
// decision is replayed whether or not it was answered; this repairs only
// the answer.
func (g *Gates) repairAnswers(ctx context.Context, in pull.Input, ev *verdict.Evaluation) error {
	seen := map[int64]bool{}
	repaired := 0
	for _, o := range ev.GateLog().Outcomes {
		if o.Implicit || verdict.Deferred(o) || seen[o.ItemID] || repaired == maxRepairs {
			continue
		}
		seen[o.ItemID] = true
		_, at, ok := verdict.ItemOf(ev.Snap, o.ItemID)
		if !ok || time.Since(at) > g.Redelivered {
			continue
		}
		done, err := g.Ledger.Has(ctx, verdict.AnsweredSubject(in.Origin(), o.ItemID))
		if err != nil {
			return err
		}
		if done {
			continue
		}
		next := in
		next.Answer = o.ItemID
		if _, _, err := g.answerItem(ctx, next, ev, o.ItemID); err != nil {
			return err
		}
		repaired++
		g.Log.Info("answered a comment whose webhook was missed", "item", o.ItemID)
	}
	return nil
}
