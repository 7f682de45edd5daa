package store

import (
	"context"
	"fmt"
	"time"
)

// Requests to judge a pull request again are coalesced: each one counts
// itself in its pull request's row (requested, with its time), and the
// job that judges the pull request records how many requests its
// judgement covered (judged). A job that finds requested past what it
// covered judges once more; one that finds nothing new judges nothing.

// rejudgeTables is the coalesced requests' table, the same on both engines.
var rejudgeTables = []string{
	`CREATE TABLE aepgate_rejudge (
		pr TEXT PRIMARY KEY,
		requested BIGINT NOT NULL,
		judged BIGINT NOT NULL,
		last_at TEXT NOT NULL,
		pending_since TEXT NOT NULL)`,
}

// RequestRejudge counts one request, at now, to judge pull request pr
// ("owner/name#N") again, inside tx.
func RequestRejudge(ctx context.Context, tx Tx, pr string, now time.Time) error {
	at := now.UTC().Format(timeFormat)
	_, err := tx.Exec(ctx, `INSERT INTO aepgate_rejudge (pr, requested, judged, last_at, pending_since) VALUES ($1, 1, 0, $2, $2)
		ON CONFLICT (pr) DO UPDATE SET requested = aepgate_rejudge.requested + 1, last_at = $2,
			pending_since = CASE WHEN aepgate_rejudge.requested = aepgate_rejudge.judged THEN $2 ELSE aepgate_rejudge.pending_since END`, pr, at)
	if err != nil {
		return fmt.Errorf("request judging %s: %w", pr, err)
	}
	return nil
}

// Rejudge is one pull request's requests to be judged again.
type Rejudge struct {
	// Requested counts the requests made, Judged those a judgement covered.
	Requested, Judged int64
	// Last is when the newest request came, PendingSince when the oldest
	// one no judgement covered did.
	Last, PendingSince time.Time
}

// Pending reports whether a request came after the last judgement.
func (r Rejudge) Pending() bool { return r.Requested > r.Judged }

// RejudgeState reads pull request pr's requests (zero when none was made).
func (db *DB) RejudgeState(ctx context.Context, pr string) (Rejudge, error) {
	rows, err := db.read(ctx, `SELECT requested, judged, last_at, pending_since FROM aepgate_rejudge WHERE pr = $1`, pr)
	if err != nil {
		return Rejudge{}, fmt.Errorf("read requests to judge %s: %w", pr, err)
	}
	defer rows.Close()
	var r Rejudge
	if rows.Next() {
		var last, since string
		if err := rows.Scan(&r.Requested, &r.Judged, &last, &since); err != nil {
			return Rejudge{}, fmt.Errorf("read requests to judge %s: %w", pr, err)
		}
		r.Last, _ = time.Parse(timeFormat, last)
		r.PendingSince, _ = time.Parse(timeFormat, since)
	}
	return r, rows.Err()
}

// RejudgeCovered records that a judgement of pr that began at start
// covered its first upTo requests; those that came since are pending from
// start on.
func (db *DB) RejudgeCovered(ctx context.Context, pr string, upTo int64, start time.Time) error {
	err := db.InTx(ctx, func(tx Tx) error {
		_, err := tx.Exec(ctx, `UPDATE aepgate_rejudge SET judged = $2, pending_since = $3 WHERE pr = $1 AND judged < $2`,
			pr, upTo, start.UTC().Format(timeFormat))
		return err
	})
	if err != nil {
		return fmt.Errorf("record judging %s: %w", pr, err)
	}
	return nil
}
