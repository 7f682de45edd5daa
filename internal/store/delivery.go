package store

import (
	"context"
	"fmt"
	"time"
)

// ForgetDeliveries deletes delivery IDs older than before (GitHub redelivers
// for three days only) and returns how many went.
func (db *DB) ForgetDeliveries(ctx context.Context, before time.Time) (int64, error) {
	var n int64
	err := db.InTx(ctx, func(tx Tx) error {
		var err error
		n, err = tx.Exec(ctx, `DELETE FROM aepgate_delivery WHERE received_at < $1`, before.UTC().Format(timeFormat))
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("forget deliveries: %w", err)
	}
	return n, nil
}
