package store

import (
	"context"
	"fmt"
	"time"
)

// The attempt index: which open pull requests of a repository name which
// unit (their body's one Work-unit), so an evaluation reads a unit's other
// attempts by number instead of paging through every mention GitHub
// recorded on the unit's issue. Rows are kept from the pull_request
// deliveries (RecordAttempt) and rebuilt by each full listing of a
// repository's open pull requests (IndexAttempts), which is also what makes
// a repository's index complete: until one has run, or after an evaluation
// found an attempt the index lacked (ForgetAttemptIndex), the index vouches
// for nothing and evaluations read the mentions from GitHub.

// attemptTables are the attempt index's tables, the same on both engines.
var attemptTables = []string{
	`CREATE TABLE aepgate_attempt (
		repo TEXT NOT NULL,
		pr INTEGER NOT NULL,
		unit INTEGER NOT NULL,
		recorded_at TEXT NOT NULL,
		PRIMARY KEY (repo, pr))`,
	`CREATE INDEX aepgate_attempt_unit ON aepgate_attempt (repo, unit)`,
	`CREATE TABLE aepgate_attempt_index (
		repo TEXT PRIMARY KEY,
		listed_at TEXT NOT NULL)`,
}

// RecordAttempt records what a delivery said of pull request pr of repo
// ("owner/name"): open and naming unit (its one Work-unit), or not (unit 0,
// or closed), which removes it from the index.
func (db *DB) RecordAttempt(ctx context.Context, repo string, pr, unit int, open bool, now time.Time) error {
	err := db.InTx(ctx, func(tx Tx) error {
		if !open || unit <= 0 {
			_, err := tx.Exec(ctx, `DELETE FROM aepgate_attempt WHERE repo = $1 AND pr = $2`, repo, pr)
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO aepgate_attempt (repo, pr, unit, recorded_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (repo, pr) DO UPDATE SET unit = excluded.unit, recorded_at = excluded.recorded_at`,
			repo, pr, unit, now.UTC().Format(timeFormat))
		return err
	})
	if err != nil {
		return fmt.Errorf("record attempt %s#%d: %w", repo, pr, err)
	}
	return nil
}

// IndexAttempts rebuilds repo's index from a full listing of its open pull
// requests that began at listedAt: open maps each listed pull request that
// names a unit to it. Rows recorded since listedAt (deliveries the listing
// may not have seen) stay; older rows the listing lacks are dropped. The
// index is complete from then on.
func (db *DB) IndexAttempts(ctx context.Context, repo string, open map[int]int, listedAt time.Time) error {
	at := listedAt.UTC().Format(timeFormat)
	err := db.InTx(ctx, func(tx Tx) error {
		for pr, unit := range open {
			if _, err := tx.Exec(ctx, `INSERT INTO aepgate_attempt (repo, pr, unit, recorded_at) VALUES ($1, $2, $3, $4)
				ON CONFLICT (repo, pr) DO UPDATE SET unit = excluded.unit, recorded_at = excluded.recorded_at
				WHERE aepgate_attempt.recorded_at < excluded.recorded_at`, repo, pr, unit, at); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `DELETE FROM aepgate_attempt WHERE repo = $1 AND recorded_at < $2`, repo, at); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO aepgate_attempt_index (repo, listed_at) VALUES ($1, $2)
			ON CONFLICT (repo) DO UPDATE SET listed_at = excluded.listed_at`, repo, at)
		return err
	})
	if err != nil {
		return fmt.Errorf("index attempts of %s: %w", repo, err)
	}
	return nil
}

// ForgetAttemptIndex makes repo's index vouch for nothing until the next
// full listing (IndexAttempts): an evaluation found an open attempt it
// lacked (a delivery was lost).
func (db *DB) ForgetAttemptIndex(ctx context.Context, repo string) error {
	err := db.InTx(ctx, func(tx Tx) error {
		_, err := tx.Exec(ctx, `DELETE FROM aepgate_attempt_index WHERE repo = $1`, repo)
		return err
	})
	if err != nil {
		return fmt.Errorf("forget attempt index of %s: %w", repo, err)
	}
	return nil
}

// UnitAttempts returns the open pull requests of repo recorded as naming
// unit, in order, and whether repo's index is complete (a full listing
// rebuilt it and nothing made it forget since), read in one statement so
// both come from the same state. An incomplete index's rows are returned
// too, but vouch for nothing.
func (db *DB) UnitAttempts(ctx context.Context, repo string, unit int) ([]int, bool, error) {
	// Pull request numbers are positive: 0 stands for the index's row.
	rows, err := db.read(ctx, `SELECT pr FROM aepgate_attempt WHERE repo = $1 AND unit = $2
		UNION ALL SELECT 0 FROM aepgate_attempt_index WHERE repo = $1 ORDER BY 1`, repo, unit)
	if err != nil {
		return nil, false, fmt.Errorf("attempts of %s#%d: %w", repo, unit, err)
	}
	defer rows.Close()
	var out []int
	complete := false
	for rows.Next() {
		var pr int
		if err := rows.Scan(&pr); err != nil {
			return nil, false, fmt.Errorf("attempts of %s#%d: %w", repo, unit, err)
		}
		if pr == 0 {
			complete = true
			continue
		}
		out = append(out, pr)
	}
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("attempts of %s#%d: %w", repo, unit, err)
	}
	return out, complete, nil
}
