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
// (remembered for memory; a record older than that is replaced), the same
// records RecordDelivery and RecordBody keep, written by a few multi-row
// statements instead of two or three per delivery (a statement's parse
// cost on SQLite was most of a batch's). Rows are written in sorted order
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
		args := []any{now.UTC().Format(timeFormat), since.UTC().Format(timeFormat)}
		var values []string
		var keys []any
		for _, i := range chunk {
			values = append(values, fmt.Sprintf("($%d, $%d, $1)", len(args)+1, len(args)+2))
			key := hex.EncodeToString(as[i].Sum[:])
			keys = append(keys, key)
			args = append(args, key, as[i].ID)
		}
		_, err := tx.Exec(ctx, `INSERT INTO aepgate_body (sha256, delivery_id, seen_at) VALUES `+strings.Join(values, ", ")+
			` ON CONFLICT (sha256) DO UPDATE SET delivery_id = excluded.delivery_id, seen_at = excluded.seen_at
			WHERE aepgate_body.seen_at < $2`, args...)
		if err != nil {
			return nil, fmt.Errorf("record %d bodies: %w", len(chunk), err)
		}
		if err := readBodies(ctx, tx, keys, onRecord); err != nil {
			return nil, err
		}
	}
	return onRecord, nil
}

// readBodies reads the delivery ID on record for each sum of keys (hex)
// into onRecord.
func readBodies(ctx context.Context, tx Tx, keys []any, onRecord map[[32]byte]string) error {
	marks := make([]string, len(keys))
	for i := range keys {
		marks[i] = fmt.Sprintf("$%d", i+1)
	}
	rows, err := tx.Query(ctx, `SELECT sha256, delivery_id FROM aepgate_body WHERE sha256 IN (`+strings.Join(marks, ", ")+`)`, keys...)
	if err != nil {
		return fmt.Errorf("read %d bodies: %w", len(keys), err)
	}
	defer rows.Close()
	for rows.Next() {
		var key, id string
		if err := rows.Scan(&key, &id); err != nil {
			return fmt.Errorf("read bodies: %w", err)
		}
		var sum [32]byte
		if n, err := hex.Decode(sum[:], []byte(key)); err != nil || n != len(sum) {
			return fmt.Errorf("read bodies: sha256 %q is not 32 hex bytes", key)
		}
		onRecord[sum] = id
	}
	return rows.Err()
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
