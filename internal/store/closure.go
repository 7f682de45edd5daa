package store

import (
	"context"
	"fmt"
	"time"
)

// Closures: GitHub says who closed an issue and why, but not whether that
// closure counts as the unit done (protocol/closurerules). The App keeps, per
// unit, the facts of its last closure as it judged them on the
// issues.closed delivery (who closed it, their live permission, the
// state_reason, a HOLD then in force) and the evidence it wrote itself for
// the unit's merged attempts (certificates, readbacks); dependents are
// judged from these rows and GitHub's open state.
var closureTables = []string{
	`CREATE TABLE aepgate_closure (
		repo TEXT NOT NULL,
		unit INTEGER NOT NULL,
		facts TEXT NOT NULL,
		commented TEXT NOT NULL,
		saved_at TEXT NOT NULL,
		PRIMARY KEY (repo, unit))`,
	`CREATE TABLE aepgate_unit_evidence (
		repo TEXT NOT NULL,
		unit INTEGER NOT NULL,
		pr INTEGER NOT NULL,
		attempt TEXT NOT NULL,
		saved_at TEXT NOT NULL,
		PRIMARY KEY (repo, unit, pr))`,
}

// SaveClosure stores the facts (JSON the caller encodes) of unit's
// closure, replacing earlier ones, and appends e to the ledger in the same
// transaction.
func (db *DB) SaveClosure(ctx context.Context, repo string, unit int, facts []byte, e Entry, now time.Time) error {
	err := db.InTx(ctx, func(tx Tx) error {
		if _, err := Append(ctx, tx, db.Dialect, e, now); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO aepgate_closure (repo, unit, facts, commented, saved_at) VALUES ($1, $2, $3, '', $4)
			ON CONFLICT (repo, unit) DO UPDATE SET facts = excluded.facts, saved_at = excluded.saved_at`,
			repo, unit, string(facts), now.UTC().Format(timeFormat))
		return err
	})
	if err != nil {
		return fmt.Errorf("save closure %s#%d: %w", repo, unit, err)
	}
	return nil
}

// Closures returns repo's closure facts by unit.
func (db *DB) Closures(ctx context.Context, repo string) (map[int][]byte, error) {
	rows, err := db.read(ctx, `SELECT unit, facts FROM aepgate_closure WHERE repo = $1`, repo)
	if err != nil {
		return nil, fmt.Errorf("closures %s: %w", repo, err)
	}
	defer rows.Close()
	out := map[int][]byte{}
	for rows.Next() {
		var unit int
		var facts string
		if err := rows.Scan(&unit, &facts); err != nil {
			return nil, fmt.Errorf("closures %s: %w", repo, err)
		}
		out[unit] = []byte(facts)
	}
	return out, rows.Err()
}

// MarkClosureCommented records that the App commented on unit's closure
// identified by key (e.g. its closed_at); it reports whether this key was
// not marked before, so the comment is posted once per closure.
func (db *DB) MarkClosureCommented(ctx context.Context, repo string, unit int, key string) (bool, error) {
	var fresh bool
	err := db.InTx(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `UPDATE aepgate_closure SET commented = $3 WHERE repo = $1 AND unit = $2 AND commented <> $3`, repo, unit, key)
		fresh = n > 0
		return err
	})
	if err != nil {
		return false, fmt.Errorf("mark closure comment %s#%d: %w", repo, unit, err)
	}
	return fresh, nil
}

// SaveUnitEvidence stores what the App wrote for one merged attempt of
// unit (JSON the caller encodes), replacing an earlier row of that attempt.
func (db *DB) SaveUnitEvidence(ctx context.Context, repo string, unit, pr int, attempt []byte, now time.Time) error {
	err := db.InTx(ctx, func(tx Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO aepgate_unit_evidence (repo, unit, pr, attempt, saved_at) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (repo, unit, pr) DO UPDATE SET attempt = excluded.attempt, saved_at = excluded.saved_at`,
			repo, unit, pr, string(attempt), now.UTC().Format(timeFormat))
		return err
	})
	if err != nil {
		return fmt.Errorf("save evidence %s#%d (#%d): %w", repo, unit, pr, err)
	}
	return nil
}

// UnitEvidence returns repo's attempt evidence by unit, by pull request
// order.
func (db *DB) UnitEvidence(ctx context.Context, repo string) (map[int][][]byte, error) {
	rows, err := db.read(ctx, `SELECT unit, attempt FROM aepgate_unit_evidence WHERE repo = $1 ORDER BY unit, pr`, repo)
	if err != nil {
		return nil, fmt.Errorf("unit evidence %s: %w", repo, err)
	}
	defer rows.Close()
	out := map[int][][]byte{}
	for rows.Next() {
		var unit int
		var a string
		if err := rows.Scan(&unit, &a); err != nil {
			return nil, fmt.Errorf("unit evidence %s: %w", repo, err)
		}
		out[unit] = append(out[unit], []byte(a))
	}
	return out, rows.Err()
}
