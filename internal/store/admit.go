package store

import (
	"bytes"
	"cmp"
	"context"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Admission is what recording one verified webhook delivery found. Its
// zero value is a new delivery: its job is to be queued.
type Admission struct {
	// Redelivered is set when the delivery ID was recorded before
	// (GitHub's redelivery keeps the ID); nothing else was recorded.
	Redelivered bool
	// ReplayOf, when set, is the other delivery ID under which a body with
	// the same SHA-256 was recorded within the memory: a captured body
	// sent again under a new ID, not to be queued again.
	ReplayOf string
}

// Arrival is one verified delivery to admit: its ID, event and body's
// SHA-256 (zero: none recorded).
type Arrival struct {
	ID, Event string
	Sum       [32]byte
}

// admitChunk bounds the rows of one admission statement, so a batch of
// any size stays far below SQLite's and PostgreSQL's bound-parameter
// limits (32,766 and 65,535).
const admitChunk = 256

// AdmitBatch records, inside tx, a batch of verified deliveries: every ID,
// then, for each new ID when memory > 0, its body's non-zero SHA-256
// (remembered for memory; a record older than that is replaced), written
// by a few multi-row statements instead of two or three per delivery (a
// statement's parse cost on SQLite was most of a batch's). Rows are written in sorted order
// of ID, then of SHA-256, so two replicas admitting overlapping batches
// take their row locks in one order and cannot deadlock on PostgreSQL; of
// two deliveries of one ID or one body in a batch the earlier arrival is
// the first. Deliveries admitted in one transaction see each other's
// records, so a body replayed inside one batch is known as a replay just
// as one replayed across batches; a transaction that rolls back records
// nothing, so GitHub's redelivery is admitted afresh.
func AdmitBatch(ctx context.Context, tx Tx, as []Arrival, now time.Time, memory time.Duration) ([]Admission, error) {
	out := make([]Admission, len(as))
	ids := firsts(as, func(a, b Arrival) int { return cmp.Compare(a.ID, b.ID) }, nil)
	fresh, err := recordDeliveries(ctx, tx, as, ids, now)
	if err != nil {
		return nil, err
	}
	for i := range as {
		out[i].Redelivered = !fresh[i]
	}
	if memory <= 0 {
		return out, nil
	}
	skip := func(i int) bool { return out[i].Redelivered || as[i].Sum == [32]byte{} }
	bodies := firsts(as, func(a, b Arrival) int { return bytes.Compare(a.Sum[:], b.Sum[:]) }, skip)
	onRecord, err := recordBodies(ctx, tx, as, bodies, now, now.Add(-memory))
	if err != nil {
		return nil, err
	}
	for i, a := range as {
		if skip(i) {
			continue
		}
		if first := onRecord[a.Sum]; first != a.ID {
			out[i].ReplayOf = first
		}
	}
	return out, nil
}

// firsts returns the index of the earliest arrival of each distinct key
// (by compare) among the arrivals skip does not leave out, in sorted
// order of key.
func firsts(as []Arrival, compare func(a, b Arrival) int, skip func(int) bool) []int {
	var order []int
	for i := range as {
		if skip == nil || !skip(i) {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return compare(as[a], as[b]) })
	return slices.CompactFunc(order, func(a, b int) bool { return compare(as[a], as[b]) == 0 })
}

// recordDeliveries inserts the IDs of as[i] for i in idx (distinct, in
// sorted order) and reports, by index into as, the arrivals whose ID was
// new: the first arrival of each ID not recorded before.
func recordDeliveries(ctx context.Context, tx Tx, as []Arrival, idx []int, now time.Time) ([]bool, error) {
	fresh := make([]bool, len(as))
	at := now.UTC().Format(timeFormat)
	for chunk := range slices.Chunk(idx, admitChunk) {
		args := []any{at}
		var values []string
		for _, i := range chunk {
			values = append(values, fmt.Sprintf("($%d, $%d, $1)", len(args)+1, len(args)+2))
			args = append(args, as[i].ID, as[i].Event)
		}
		inserted, err := queryStrings(ctx, tx, `INSERT INTO aepgate_delivery (delivery_id, event, received_at) VALUES `+
			strings.Join(values, ", ")+` ON CONFLICT (delivery_id) DO NOTHING RETURNING delivery_id`, args...)
		if err != nil {
			return nil, fmt.Errorf("record %d deliveries: %w", len(chunk), err)
		}
		for _, i := range chunk {
			fresh[i] = inserted[as[i].ID]
		}
	}
	return fresh, nil
}

// recordBodies records the body sums of as[i] for i in idx (distinct, in
// sorted order) under their delivery IDs unless a record of the sum is
// newer than since, and returns the delivery ID on record for each sum.
func recordBodies(ctx context.Context, tx Tx, as []Arrival, idx []int, now, since time.Time) (map[[32]byte]string, error) {
	onRecord := make(map[[32]byte]string, len(idx))
	for chunk := range slices.Chunk(idx, admitChunk) {
		bodies := make([]bodyRow, len(chunk))
		for j, i := range chunk {
			bodies[j] = bodyRow{as[i].Sum, as[i].ID}
		}
		if err := upsertBodies(ctx, tx, bodies, now, since, onRecord); err != nil {
			return nil, err
		}
	}
	return onRecord, nil
}

// bodyRow is a body's SHA-256 and the delivery ID it came under.
type bodyRow struct {
	sum [32]byte
	id  string
}

// upsertBodies records each of bodies (distinct sums) in one statement:
// a sum not on record, or on record at or before since, is recorded under
// its delivery ID at now; one recorded after since keeps its record. The
// delivery ID on record for each sum afterwards goes into onRecord.
//
// The statement returns every row it touched (RETURNING), so no query
// reads them back: a conflict always takes the DO UPDATE branch, which
// writes the row's own values back when its record is kept (a replayed
// body, the rare case). A read-back query by sums used to follow; on
// PostgreSQL its prepared statement was planned once for a few rows
// early in a fresh database and kept that sequential scan as the table
// grew (3 ms a batch after 50,000 deliveries; docs/app.md), where an
// INSERT's ON CONFLICT always finds the row by its key.
func upsertBodies(ctx context.Context, tx Tx, bodies []bodyRow, now, since time.Time, onRecord map[[32]byte]string) error {
	args := []any{now.UTC().Format(timeFormat), since.UTC().Format(timeFormat)}
	values := make([]string, len(bodies))
	for i, b := range bodies {
		values[i] = fmt.Sprintf("($%d, $%d, $1)", len(args)+1, len(args)+2)
		args = append(args, hex.EncodeToString(b.sum[:]), b.id)
	}
	rows, err := tx.Query(ctx, `INSERT INTO aepgate_body (sha256, delivery_id, seen_at) VALUES `+strings.Join(values, ", ")+
		` ON CONFLICT (sha256) DO UPDATE SET
			delivery_id = CASE WHEN aepgate_body.seen_at < $2 THEN excluded.delivery_id ELSE aepgate_body.delivery_id END,
			seen_at = CASE WHEN aepgate_body.seen_at < $2 THEN excluded.seen_at ELSE aepgate_body.seen_at END
		RETURNING sha256, delivery_id`, args...)
	if err != nil {
		return fmt.Errorf("record %d bodies: %w", len(bodies), err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var key, id string
		if err := rows.Scan(&key, &id); err != nil {
			return fmt.Errorf("record bodies: %w", err)
		}
		var sum [32]byte
		if k, err := hex.Decode(sum[:], []byte(key)); err != nil || k != len(sum) {
			return fmt.Errorf("record bodies: sha256 %q is not 32 hex bytes", key)
		}
		onRecord[sum] = id
		n++
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("record %d bodies: %w", len(bodies), err)
	}
	if n != len(bodies) {
		return fmt.Errorf("record %d bodies: %d rows returned", len(bodies), n)
	}
	return nil
}

// queryStrings runs q and returns the set of its rows' one text column.
func queryStrings(ctx context.Context, tx Tx, q string, args ...any) (map[string]bool, error) {
	rows, err := tx.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out[s] = true
	}
	return out, rows.Err()
}
