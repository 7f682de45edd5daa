package store

import (
	"bytes"
	"cmp"
	"context"
	"slices"
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

// AdmitBatch records, inside tx, a batch of verified deliveries: every ID
// (RecordDelivery), then, for each new ID when memory > 0, its body's
// non-zero SHA-256 (RecordBody, remembered for memory). IDs are recorded
// in sorted order, then bodies in sorted order, so two replicas admitting
// overlapping batches take their row locks in one order and cannot
// deadlock on PostgreSQL; of two deliveries of one body in a batch the
// earlier arrival is the first. Deliveries admitted in one transaction see
// each other's records, so a body replayed inside one batch is known as a
// replay just as one replayed across batches; a transaction that rolls
// back records nothing, so GitHub's redelivery is admitted afresh.
func AdmitBatch(ctx context.Context, tx Tx, as []Arrival, now time.Time, memory time.Duration) ([]Admission, error) {
	out := make([]Admission, len(as))
	order := make([]int, len(as))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(as[a].ID, as[b].ID) })
	for _, i := range order {
		fresh, err := RecordDelivery(ctx, tx, as[i].ID, as[i].Event, now)
		if err != nil {
			return nil, err
		}
		out[i].Redelivered = !fresh
	}
	if memory <= 0 {
		return out, nil
	}
	slices.Sort(order) // arrival order again, so the stable sort keeps the earlier arrival of a body first
	slices.SortStableFunc(order, func(a, b int) int { return bytes.Compare(as[a].Sum[:], as[b].Sum[:]) })
	for _, i := range order {
		if out[i].Redelivered || as[i].Sum == [32]byte{} {
			continue
		}
		first, err := RecordBody(ctx, tx, as[i].Sum, as[i].ID, now, now.Add(-memory))
		if err != nil {
			return nil, err
		}
		if first != as[i].ID {
			out[i].ReplayOf = first
		}
	}
	return out, nil
}
