package app

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/gatelog"
)

// keeper keeps the decisions the App accepted (store.DB), so an edit or
// deletion of their source comment never lifts them (docs/gates.md, "Kept
// decisions").
type keeper interface {
	Keep(ctx context.Context, k store.Kept, e store.Entry, now time.Time) (bool, error)
	KeptDecisions(ctx context.Context, repo string) ([]store.Kept, error)
	LedgerTamper(ctx context.Context, repo string, review bool, id int64, change string, e store.Entry, now time.Time) (bool, error)
	MarkTampered(ctx context.Context, repo string, commentID int64, change, by string, at time.Time) (bool, error)
	ThreadMark(ctx context.Context, repo string, number int) (int64, error)
	SetThreadMark(ctx context.Context, repo string, number int, id int64, now time.Time) error
}

// marks says how far the App read each long thread of in's repository
// before, so a snapshot reads only what came after (gh.ThreadMarker).
func (e *evaluator) marks(in evalInput) gh.ThreadMarker {
	repo := in.owner + "/" + in.repo
	return func(ctx context.Context, number int) (int64, error) { return e.kept.ThreadMark(ctx, repo, number) }
}

// markThreads raises the mark of every long thread the evaluation read to
// its newest comment, once its decisions are kept: the next evaluation reads
// only what comes after.
func (e *evaluator) markThreads(ctx context.Context, in evalInput, ev *verdict.Evaluation) error {
	repo, now := in.owner+"/"+in.repo, time.Now()
	for _, t := range ev.ThreadsRead() {
		if !t.Thread.Paged || len(t.Thread.Comments) == 0 {
			continue
		}
		if err := e.kept.SetThreadMark(ctx, repo, t.Number, t.Thread.Comments[len(t.Thread.Comments)-1].ID, now); err != nil {
			return err
		}
	}
	return nil
}

// loadKept reads the repository's kept decisions that bear on this
// evaluation: the control issue's, the unit's, and this pull request's.
func (e *evaluator) loadKept(ctx context.Context, in evalInput, ev *verdict.Evaluation) error {
	rows, err := e.kept.KeptDecisions(ctx, in.owner+"/"+in.repo)
	if err != nil {
		return err
	}
	ev.Kept = nil
	for _, r := range rows {
		var it gatelog.Item
		if err := json.Unmarshal(r.Item, &it); err != nil {
			return fmt.Errorf("kept decision %d of %s/%s: %w", r.ItemID, in.owner, in.repo, err)
		}
		ours := it.Source.Kind == gatelog.ControlIssue || (ev.Unit > 0 && r.Unit == ev.Unit) ||
			(it.Source.Kind == gatelog.PullRequest && in.pr > 0 && it.Source.Number == in.pr)
		if !ours {
			continue
		}
		ev.Kept = append(ev.Kept, gatelog.Kept{Item: it, BodySHA256: r.BodySHA256, Change: r.Tamper, TamperedBy: r.TamperedBy})
	}
	return nil
}

// keepDecisions stores every decision the gate log accepted that is not
// kept yet, each with its ledger row, and writes one ledger row for each
// tampering first seen (verdict.ToKeep, KeptRecord, TamperEntry). It runs
// before anything is acted on, so a crash leaves the decision kept.
func (e *evaluator) keepDecisions(ctx context.Context, in evalInput, ev *verdict.Evaluation) error {
	if ev.GateLog() == nil {
		return nil
	}
	repo, now := in.owner+"/"+in.repo, time.Now()
	for _, it := range verdict.ToKeep(ev) {
		k, entry, err := verdict.KeptRecord(in.origin(), ev, it)
		if err != nil {
			return err
		}
		fresh, err := e.kept.Keep(ctx, k, entry, now)
		if err != nil {
			return err
		}
		if fresh {
			e.log.Info("decision kept", "item", it.ID, "thread", it.Source.Number, "author", it.Author)
		}
	}
	for _, t := range ev.GateLog().Tampered {
		if _, err := e.kept.LedgerTamper(ctx, repo, t.Review, t.ItemID, t.Change, verdict.TamperEntry(in.origin(), ev, t), now); err != nil {
			return err
		}
	}
	return e.markThreads(ctx, in, ev)
}
