// Package writer is the one way the App's judges write what they decided:
// a ledger row per decision, recorded before it is acted on, and a check
// run published only when GitHub does not already show it. The pull-request
// pipeline, readback, certificates and releases share one Writer instead of
// each carrying its own publisher, ledger and metrics.
package writer

import (
	"context"
	"fmt"
	"time"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/store"
)

// Publisher writes one check run idempotently (gh.CheckPublisher): Publish
// finds an earlier run to update, PublishNew creates one when the caller
// saw none.
type Publisher interface {
	Publish(ctx context.Context, owner, repo string, run checks.Run) (int64, error)
	PublishNew(ctx context.Context, owner, repo string, run checks.Run) (int64, error)
}

// Ledger appends decisions and says whether one about a subject exists
// (store.DB through the App).
type Ledger interface {
	Record(ctx context.Context, e store.Entry) error
	Has(ctx context.Context, subject string) (bool, error)
}

// Writer publishes check runs and records decisions for one installation.
type Writer struct {
	Pub    Publisher
	Ledger Ledger
	// Count is told of every check run handed to Publish: its name and
	// "written" or "unchanged" (nil: not counted).
	Count func(name, outcome string)
}

// Record appends one decision to the ledger.
func (w Writer) Record(ctx context.Context, e store.Entry) error { return w.Ledger.Record(ctx, e) }

// Has reports whether a ledger row is about subject.
func (w Writer) Has(ctx context.Context, subject string) (bool, error) {
	return w.Ledger.Has(ctx, subject)
}

// Publish writes run on owner/repo: nothing when write is false (GitHub
// already shows it, by checks.Unchanged), a create without searching when
// fresh (the caller saw no such run), else the publisher's find-and-update.
// It returns the written run's ID (0 when nothing was written).
func (w Writer) Publish(ctx context.Context, owner, repo string, run checks.Run, write, fresh bool) (int64, error) {
	if !write {
		w.count(run.Name, "unchanged")
		return 0, nil
	}
	publish := w.Pub.Publish
	if fresh {
		publish = w.Pub.PublishNew
	}
	id, err := publish(ctx, owner, repo, run)
	if err != nil {
		return 0, fmt.Errorf("publish %s on %s/%s: %w", run.Name, owner, repo, err)
	}
	w.count(run.Name, "written")
	return id, nil
}

func (w Writer) count(name, outcome string) {
	if w.Count != nil {
		w.Count(name, outcome)
	}
}

// DBLedger is the App's ledger on its database: each row appended in its
// own transaction, chained to the last, and the new head signed in it when
// the database has a HeadSigner.
type DBLedger struct{ DB *store.DB }

// Record appends e.
func (l DBLedger) Record(ctx context.Context, e store.Entry) error {
	return l.DB.InTx(ctx, func(tx store.Tx) error {
		if _, err := store.Append(ctx, tx, l.DB.Dialect, e, time.Now()); err != nil {
			return err
		}
		return l.DB.SealHead(ctx, tx)
	})
}

// Has reports whether a ledger row is about subject.
func (l DBLedger) Has(ctx context.Context, subject string) (bool, error) {
	return l.DB.LedgerHasSubject(ctx, subject)
}
