package store

import (
	"context"
	"fmt"
	"time"
)

// boardIncrementTables keep, for the owner's board, the App's latest
// judgement of each milestone's increment (app/increment), as JSON the
// caller encodes.
var boardIncrementTables = []string{
	`CREATE TABLE aepgate_board_increment (
		repo TEXT NOT NULL,
		milestone INTEGER NOT NULL,
		fact TEXT NOT NULL,
		saved_at TEXT NOT NULL,
		PRIMARY KEY (repo, milestone))`,
}

// SaveBoardIncrement stores the board's fact of repo's milestone and
// reports whether it differs from the one stored before.
func (db *DB) SaveBoardIncrement(ctx context.Context, repo string, milestone int, fact []byte, now time.Time) (bool, error) {
	var changed bool
	err := db.InTx(ctx, func(tx Tx) error {
		var old string
		err := tx.QueryRow(ctx, `SELECT fact FROM aepgate_board_increment WHERE repo = $1 AND milestone = $2`, repo, milestone).Scan(&old)
		switch {
		case err == nil && old == string(fact):
			return nil
		case err != nil && !isNoRows(err):
			return err
		}
		changed = true
		_, err = tx.Exec(ctx, `INSERT INTO aepgate_board_increment (repo, milestone, fact, saved_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (repo, milestone) DO UPDATE SET fact = excluded.fact, saved_at = excluded.saved_at`,
			repo, milestone, string(fact), now.UTC().Format(timeFormat))
		return err
	})
	if err != nil {
		return false, fmt.Errorf("save board increment %s milestone %d: %w", repo, milestone, err)
	}
	return changed, nil
}

// BoardIncrements returns the stored facts of repo's milestones, by
// number.
func (db *DB) BoardIncrements(ctx context.Context, repo string) (map[int][]byte, error) {
	rows, err := db.read(ctx, `SELECT milestone, fact FROM aepgate_board_increment WHERE repo = $1`, repo)
	if err != nil {
		return nil, fmt.Errorf("board increments %s: %w", repo, err)
	}
	defer rows.Close()
	out := map[int][]byte{}
	for rows.Next() {
		var n int
		var s string
		if err := rows.Scan(&n, &s); err != nil {
			return nil, fmt.Errorf("board increments %s: %w", repo, err)
		}
		out[n] = []byte(s)
	}
	return out, rows.Err()
}
