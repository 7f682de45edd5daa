package app

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

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
func (e *evaluator) markThreads(ctx context.Context, in evalInput, ev *evaluation) error {
	repo, now := in.owner+"/"+in.repo, time.Now()
	for _, t := range ev.threadsRead() {
		if !t.thread.Paged || len(t.thread.Comments) == 0 {
			continue
		}
		if err := e.kept.SetThreadMark(ctx, repo, t.number, t.thread.Comments[len(t.thread.Comments)-1].ID, now); err != nil {
			return err
		}
	}
	return nil
}

// loadKept reads the repository's kept decisions that bear on this
// evaluation: the control issue's, the unit's, and this pull request's.
func (e *evaluator) loadKept(ctx context.Context, in evalInput, ev *evaluation) error {
	rows, err := e.kept.KeptDecisions(ctx, in.owner+"/"+in.repo)
	if err != nil {
		return err
	}
	ev.kept = nil
	for _, r := range rows {
		var it gatelog.Item
		if err := json.Unmarshal(r.Item, &it); err != nil {
			return fmt.Errorf("kept decision %d of %s/%s: %w", r.ItemID, in.owner, in.repo, err)
		}
		ours := it.Source.Kind == gatelog.ControlIssue || (ev.unit > 0 && r.Unit == ev.unit) ||
			(it.Source.Kind == gatelog.PullRequest && in.pr > 0 && it.Source.Number == in.pr)
		if !ours {
			continue
		}
		ev.kept = append(ev.kept, gatelog.Kept{Item: it, BodySHA256: r.BodySHA256, Change: r.Tamper, TamperedBy: r.TamperedBy})
	}
	return nil
}

// keepDecisions stores every decision the gate log accepted that is not
// kept yet, each with its ledger row, and writes one ledger row for each
// tampering first seen. It runs before anything is acted on, so a crash
// leaves the decision kept.
func (e *evaluator) keepDecisions(ctx context.Context, in evalInput, ev *evaluation) error {
	if ev.gateLog() == nil {
		return nil
	}
	repo, now := in.owner+"/"+in.repo, time.Now()
	type key struct {
		review bool
		id     int64
	}
	have := map[key]bool{}
	for _, k := range ev.kept {
		have[key{k.Item.Event == gatelog.EventReview, k.Item.ID}] = true
	}
	items := map[key]*gatelog.Item{}
	for i := range ev.gateLog().Items {
		it := &ev.gateLog().Items[i]
		items[key{it.Event == gatelog.EventReview, it.ID}] = it
	}
	for _, o := range ev.gateLog().Outcomes {
		if !o.Accepted || !gatelog.Keeps(o.Action) {
			continue
		}
		k := key{o.Review, o.ItemID}
		it := items[k]
		if it == nil || have[k] {
			continue
		}
		have[k] = true
		if err := e.keepItem(ctx, in, ev, repo, *it, now); err != nil {
			return err
		}
	}
	for _, t := range ev.gateLog().Tampered {
		entry := store.Entry{Kind: "tampering", DeliveryID: in.delivery, Subject: fmt.Sprintf("%s/kept/%d", repo, t.ItemID),
			Body: map[string]any{"repository": repo, "item": t.ItemID, "url": t.URL, "thread": t.Source.Number, "kind": string(t.Source.Kind),
				"author": t.Author, "change": t.Change, "by": t.By, "unit": ev.unit, "pull_request": in.pr}}
		if _, err := e.kept.LedgerTamper(ctx, repo, t.Review, t.ItemID, t.Change, entry, now); err != nil {
			return err
		}
	}
	return e.markThreads(ctx, in, ev)
}

// keepItem stores one accepted item with its ledger row.
func (e *evaluator) keepItem(ctx context.Context, in evalInput, ev *evaluation, repo string, it gatelog.Item, now time.Time) error {
	raw, err := json.Marshal(it)
	if err != nil {
		return fmt.Errorf("encode kept decision %d: %w", it.ID, err)
	}
	unit := ev.unit
	if it.Source.Kind == gatelog.ControlIssue {
		unit = 0
	}
	hash := gatelog.BodyHash(it.Body)
	k := store.Kept{Repo: repo, Review: it.Event == gatelog.EventReview, ItemID: it.ID, Unit: unit, Item: raw, BodySHA256: hash}
	entry := store.Entry{Kind: "kept_decision", DeliveryID: in.delivery, Subject: fmt.Sprintf("%s/kept/%d", repo, it.ID),
		Body: map[string]any{"repository": repo, "item": it.ID, "url": it.URL, "thread": it.Source.Number, "kind": string(it.Source.Kind),
			"author": it.Author, "created": it.Created.UTC().Format(time.RFC3339Nano), "body_sha256": hash, "unit": unit}}
	fresh, err := e.kept.Keep(ctx, k, entry, now)
	if err == nil && fresh {
		e.log.Info("decision kept", "item", it.ID, "thread", it.Source.Number, "author", it.Author)
	}
	return err
}
