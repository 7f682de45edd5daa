package gates

import (
	"context"
	"time"

	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/verdict"
)

// Keep stores every decision the gate log accepted that is not kept yet,
// each with its ledger row, and writes one ledger row for each tampering
// first seen (verdict.ToKeep, KeptRecord, TamperEntry). It runs before
// anything is acted on, so a crash leaves the decision kept.
func (g *Gates) Keep(ctx context.Context, in pull.Input, ev *verdict.Evaluation) error {
	if ev.GateLog() == nil {
		return nil
	}
	repo, now := in.FullName(), time.Now()
	for _, it := range verdict.ToKeep(ev) {
		k, entry, err := verdict.KeptRecord(in.Origin(), ev, it)
		if err != nil {
			return err
		}
		fresh, err := g.Kept.Keep(ctx, k, entry, now)
		if err != nil {
			return err
		}
		if fresh {
			g.Log.Info("decision kept", "item", it.ID, "thread", it.Source.Number, "author", it.Author)
		}
	}
	for _, t := range ev.GateLog().Tampered {
		if _, err := g.Kept.LedgerTamper(ctx, repo, t.Review, t.ItemID, t.Change, verdict.TamperEntry(in.Origin(), ev, t), now); err != nil {
			return err
		}
	}
	return g.markThreads(ctx, in, ev)
}

// markThreads raises the mark of every long thread the evaluation read to
// its newest comment, once its decisions are kept: the next evaluation reads
// only what comes after.
func (g *Gates) markThreads(ctx context.Context, in pull.Input, ev *verdict.Evaluation) error {
	repo, now := in.FullName(), time.Now()
	for _, t := range ev.ThreadsRead() {
		if !t.Thread.Paged || len(t.Thread.Comments) == 0 {
			continue
		}
		if err := g.Kept.SetThreadMark(ctx, repo, t.Number, t.Thread.Comments[len(t.Thread.Comments)-1].ID, now); err != nil {
			return err
		}
	}
	return nil
}

// Change is an edit or deletion of a comment that may be a kept
// decision's source.
type Change struct {
	ID         int64
	Change, By string
	// Control says the comment is on the control issue.
	Control bool
}

// SourceChanged marks c on the kept decision whose source it is, if any
// (the decision stays in force, shown as tampering). When that decision is
// on the control issue every open pull request is judged again (a fanout)
// and it reports done: nothing else is left to do for c.
func (g *Gates) SourceChanged(ctx context.Context, in pull.Input, c Change) (done bool, err error) {
	kept, err := g.Kept.MarkTampered(ctx, in.FullName(), c.ID, c.Change, c.By, time.Now())
	if err != nil {
		return false, err
	}
	if kept {
		g.Log.Warn("a kept decision's source was changed; the decision stays in force", "comment", c.ID, "change", c.Change, "by", c.By)
	}
	if c.Control && kept {
		// Every pull request then shows the tampering.
		return true, g.fanout(ctx, in)
	}
	return false, nil
}
