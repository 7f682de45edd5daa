package queue

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/riverqueue/river"

	"github.com/aepgate/aepgate/internal/store"
)

// On SQLite, River's fast insert (riversqlite's JobInsertFastManyNoReturning)
// marshals every job into one JSON array and takes it apart again in SQL,
// twelve json_extract calls a row over json_each's text of each element:
// at 1,000 deliveries a second that was half of a webhook batch's
// transaction and a fifth of serve's CPU (docs/app.md, "Group commit and
// throughput"). insertSQLiteDeliveries writes the same rows with one plain
// multi-row INSERT instead. The columns and their values are River's for a
// job inserted with no options (river.Client's insertParamsFromConfigArgsAndOptions
// with our Config: priority, queue and attempts at River's defaults, empty
// metadata and tags, available now, no uniqueness), and
// TestSQLiteDeliveryRowsAreRiversOwn compares the two row by row, so an
// upgrade of River that changes its table or its defaults fails there
// rather than in production. Nothing is lost by leaving River's insert
// path: its transactional fast insert wakes no worker on SQLite either
// (River has no listener there); jobs are found by the poll, as before.
//
// On PostgreSQL River's fast insert is COPY FROM and stays.

// sqliteJobChunk bounds the rows of one statement: two parameters a row,
// far below SQLite's 32,766.
const sqliteJobChunk = 256

// sqliteJobRow is one row of River's river_job as riversqlite writes a new,
// available job: created_at and scheduled_at are the database's now in
// River's own format (datetime('now', 'subsec')), args and the empty
// metadata and tags are JSONB.
const sqliteJobRow = `(jsonb($%d), datetime('now', 'subsec'), '` + deliveryKind + `', $%d, jsonb('{}'), %d, '` +
	river.QueueDefault + `', datetime('now', 'subsec'), 'available', jsonb('[]'))`

// insertSQLiteDeliveries inserts inside tx one available delivery job per
// element of ds, as River's InsertManyFastTx would on SQLite.
func insertSQLiteDeliveries(ctx context.Context, tx store.Tx, ds []Delivery) error {
	for chunk := range slices.Chunk(ds, sqliteJobChunk) {
		values := make([]string, len(chunk))
		args := make([]any, 0, 2*len(chunk))
		for i, d := range chunk {
			encoded, err := json.Marshal(d)
			if err != nil {
				return fmt.Errorf("encode delivery %s: %w", d.DeliveryID, err)
			}
			values[i] = fmt.Sprintf(sqliteJobRow, len(args)+1, len(args)+2, river.PriorityDefault)
			args = append(args, string(encoded), river.MaxAttemptsDefault)
		}
		_, err := tx.Exec(ctx, `INSERT INTO river_job (args, created_at, kind, max_attempts, metadata, priority, queue, scheduled_at, state, tags) VALUES `+
			strings.Join(values, ", "), args...)
		if err != nil {
			return fmt.Errorf("insert %d delivery jobs: %w", len(chunk), err)
		}
	}
	return nil
}
