package store

import (
	"context"
	"fmt"
)

// Requests to judge a pull request again are coalesced: each one counts
// itself in its pull request's row (requested), and the job that judges
// the pull request records how many requests its judgement covered
// (judged). A job that finds requested past what it covered judges once
// more; one that finds nothing new judges nothing.

// rejudgeTables is the coalesced requests' table, the same on both engines.
var rejudgeTables = []string{
	`CREATE TABLE aepgate_rejudge (
		pr TEXT PRIMARY KEY,
		requested BIGINT NOT NULL,
		judged BIGINT NOT NULL)`,
}

// RequestRejudge counts one request to judge pull request pr
// ("owner/name#N") again, inside tx.
func RequestRejudge(ctx context.Context, tx Tx, pr string) error {
	_, err := tx.Exec(ctx, `INSERT INTO aepgate_rejudge (pr, requested, judged) VALUES ($1, 1, 0)
		ON CONFLICT (pr) DO UPDATE SET requested = aepgate_rejudge.requested + 1`, pr)
	if err != nil {
		return fmt.Errorf("request judging %s: %w", pr, err)
	}
	return nil
}

// Rejudge is how many requests to judge one pull request again were made
// and how many a judgement covered.
type Rejudge struct {
	Requested, Judged int64
}

// Pending reports whether a request came after the last judgement.
func (r Rejudge) Pending() bool { return r.Requested > r.Judged }

// RejudgeState reads pull request pr's counts (zero when none was made).
func (db *DB) RejudgeState(ctx context.Context, pr string) (Rejudge, error) {
	rows, err := db.read(ctx, `SELECT requested, judged FROM aepgate_rejudge WHERE pr = $1`, pr)
	if err != nil {
		return Rejudge{}, fmt.Errorf("read requests to judge %s: %w", pr, err)
	}
	defer rows.Close()
	var r Rejudge
	if rows.Next() {
		if err := rows.Scan(&r.Requested, &r.Judged); err != nil {
			return Rejudge{}, fmt.Errorf("read requests to judge %s: %w", pr, err)
		}
	}
	return r, rows.Err()
}

// RejudgeCovered records that a judgement of pr covered its first upTo
// requests.
func (db *DB) RejudgeCovered(ctx context.Context, pr string, upTo int64) error {
	err := db.InTx(ctx, func(tx Tx) error {
		_, err := tx.Exec(ctx, `UPDATE aepgate_rejudge SET judged = $2 WHERE pr = $1 AND judged < $2`, pr, upTo)
		return err
	})
	if err != nil {
		return fmt.Errorf("record judging %s: %w", pr, err)
	}
	return nil
}
