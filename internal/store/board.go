package store

import (
	"context"
	"fmt"
	"time"
)

// The owner's board is a view: authority stays on GitHub. The store keeps
// the latest board of each repository (for the /board page) and the facts
// each pull request's evaluation derived (for the next board update), both
// as JSON the caller encodes.

// SaveBoard stores board as repo's latest board, replacing the previous one.
func (db *DB) SaveBoard(ctx context.Context, repo string, board []byte, now time.Time) error {
	err := db.InTx(ctx, func(tx Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO aepgate_board (repo, board, saved_at) VALUES ($1, $2, $3)
			ON CONFLICT (repo) DO UPDATE SET board = excluded.board, saved_at = excluded.saved_at`,
			repo, string(board), now.UTC().Format(timeFormat))
		return err
	})
	if err != nil {
		return fmt.Errorf("save board %s: %w", repo, err)
	}
	return nil
}

// LoadBoard returns repo's latest board, and false when none was saved.
func (db *DB) LoadBoard(ctx context.Context, repo string) ([]byte, bool, error) {
	rows, err := db.read(ctx, `SELECT board FROM aepgate_board WHERE repo = $1`, repo)
	if err != nil {
		return nil, false, fmt.Errorf("load board %s: %w", repo, err)
	}
	defer rows.Close()
	if !rows.Next() {
		return nil, false, rows.Err()
	}
	var s string
	if err := rows.Scan(&s); err != nil {
		return nil, false, fmt.Errorf("load board %s: %w", repo, err)
	}
	return []byte(s), true, nil
}

// SaveBoardFact stores the board facts of pull request pr of repo and
// reports whether they differ from the ones stored before.
func (db *DB) SaveBoardFact(ctx context.Context, repo string, pr int, fact []byte, now time.Time) (bool, error) {
	return boardFacts.save(ctx, db, repo, pr, fact, now)
}

// BoardFacts returns the stored board facts of repo's pull requests, by
// number.
func (db *DB) BoardFacts(ctx context.Context, repo string) (map[int][]byte, error) {
	return boardFacts.all(ctx, db, repo)
}

// factTable is a table of JSON facts kept per repository and number: a
// pull request's board facts, a milestone's increment. Its names are
// constants of this package, never input.
type factTable struct{ table, key string }

var (
	boardFacts      = factTable{"aepgate_board_fact", "pr"}
	boardIncrements = factTable{"aepgate_board_increment", "milestone"}
)

// save stores the fact of repo's number n and reports whether it differs
// from the one stored before.
func (t factTable) save(ctx context.Context, db *DB, repo string, n int, fact []byte, now time.Time) (bool, error) {
	var changed bool
	err := db.InTx(ctx, func(tx Tx) error {
		var old string
		err := tx.QueryRow(ctx, fmt.Sprintf(`SELECT fact FROM %s WHERE repo = $1 AND %s = $2`, t.table, t.key), repo, n).Scan(&old)
		switch {
		case err == nil && old == string(fact):
			return nil
		case err != nil && !isNoRows(err):
			return err
		}
		changed = true
		_, err = tx.Exec(ctx, fmt.Sprintf(`INSERT INTO %[1]s (repo, %[2]s, fact, saved_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (repo, %[2]s) DO UPDATE SET fact = excluded.fact, saved_at = excluded.saved_at`, t.table, t.key),
			repo, n, string(fact), now.UTC().Format(timeFormat))
		return err
	})
	if err != nil {
		return false, fmt.Errorf("save %s %s %s %d: %w", t.table, repo, t.key, n, err)
	}
	return changed, nil
}

// all returns the stored facts of repo, by number.
func (t factTable) all(ctx context.Context, db *DB, repo string) (map[int][]byte, error) {
	rows, err := db.read(ctx, fmt.Sprintf(`SELECT %s, fact FROM %s WHERE repo = $1`, t.key, t.table), repo)
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", t.table, repo, err)
	}
	defer rows.Close()
	out := map[int][]byte{}
	for rows.Next() {
		var n int
		var s string
		if err := rows.Scan(&n, &s); err != nil {
			return nil, fmt.Errorf("read %s %s: %w", t.table, repo, err)
		}
		out[n] = []byte(s)
	}
	return out, rows.Err()
}
