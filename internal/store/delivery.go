package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
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

// RecordedDeliveries returns which of ids are recorded as delivered (the
// edge's dedupe table), each recorded ID once. IDs older than
// ForgetDeliveries keeps are no longer known.
func (db *DB) RecordedDeliveries(ctx context.Context, ids []string) (map[string]bool, error) {
	out := make(map[string]bool, len(ids))
	for chunk := range slices.Chunk(ids, admitChunk) {
		args := make([]any, len(chunk))
		marks := make([]string, len(chunk))
		for i, id := range chunk {
			args[i], marks[i] = id, fmt.Sprintf("$%d", i+1)
		}
		if err := db.recordedIn(ctx, `SELECT delivery_id FROM aepgate_delivery WHERE delivery_id IN (`+strings.Join(marks, ", ")+`)`, args, out); err != nil {
			return nil, fmt.Errorf("recorded deliveries: %w", err)
		}
	}
	return out, nil
}

func (db *DB) recordedIn(ctx context.Context, q string, args []any, out map[string]bool) error {
	rows, err := db.read(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return err
		}
		out[id] = true
	}
	return rows.Err()
}
