package store

import (
	"context"
	"fmt"
	"time"
)

// A webhook body's SHA-256 is kept with the delivery ID it first came
// under, so a captured signed body sent again under a new delivery ID is
// recognised and not queued again (docs/app.md, "Endpoints").

// bodyTables are the body record's table, the same on both engines.
var bodyTables = []string{
	`CREATE TABLE aepgate_body (
		sha256 TEXT PRIMARY KEY,
		delivery_id TEXT NOT NULL,
		seen_at TEXT NOT NULL)`,
	`CREATE INDEX aepgate_body_seen ON aepgate_body (seen_at)`,
}

// ForgetBodies deletes the body records older than before and returns
// how many went.
func (db *DB) ForgetBodies(ctx context.Context, before time.Time) (int64, error) {
	var n int64
	err := db.InTx(ctx, func(tx Tx) error {
		var err error
		n, err = tx.Exec(ctx, `DELETE FROM aepgate_body WHERE seen_at < $1`, before.UTC().Format(timeFormat))
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("forget bodies: %w", err)
	}
	return n, nil
}
