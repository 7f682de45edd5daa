package store

import (
	"context"
	"fmt"
	"time"
)

// RecordDelivery records delivery id of event inside tx and reports whether
// it is new. A delivery seen before (GitHub's redelivery keeps the ID)
// returns false and changes nothing. Call it only after the delivery's
// signature verified, so forged requests cannot fill the table.
func RecordDelivery(ctx context.Context, tx Tx, id, event string, now time.Time) (bool, error) {
	n, err := tx.Exec(ctx, `INSERT INTO aepgate_delivery (delivery_id, event, received_at) VALUES ($1, $2, $3)
		ON CONFLICT (delivery_id) DO NOTHING`, id, event, now.UTC().Format(timeFormat))
	if err != nil {
		return false, fmt.Errorf("record delivery %s: %w", id, err)
	}
	return n == 1, nil
}

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
