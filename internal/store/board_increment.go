package store

import (
	"context"
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
	return boardIncrements.save(ctx, db, repo, milestone, fact, now)
}

// BoardIncrements returns the stored facts of repo's milestones, by
// number.
func (db *DB) BoardIncrements(ctx context.Context, repo string) (map[int][]byte, error) {
	return boardIncrements.all(ctx, db, repo)
}
