package store

import (
	"context"
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

// Admit records, inside tx, a verified delivery: its ID (RecordDelivery)
// and, for a new ID with memory > 0 and a non-zero sum, its body's
// SHA-256 (RecordBody, remembered for memory). Deliveries admitted in one
// transaction see each other's records, so a body replayed inside one
// batch is known as a replay just as one replayed across batches; a
// transaction that rolls back records neither, so GitHub's redelivery is
// admitted afresh.
func Admit(ctx context.Context, tx Tx, id, event string, sum [32]byte, now time.Time, memory time.Duration) (Admission, error) {
	fresh, err := RecordDelivery(ctx, tx, id, event, now)
	if err != nil || !fresh {
		return Admission{Redelivered: !fresh}, err
	}
	if memory <= 0 || sum == [32]byte{} {
		return Admission{}, nil
	}
	first, err := RecordBody(ctx, tx, sum, id, now, now.Add(-memory))
	if err != nil || first == id {
		return Admission{}, err
	}
	return Admission{ReplayOf: first}, nil
}
