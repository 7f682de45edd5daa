package store

import (
	"context"
	"crypto/sha256"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestAdmitBatch: a batch admitted out of sorted order (as the edge's
// batches arrive) gets the same answers as one by one in arrival order —
// the earlier arrival of a body is its first, a repeated ID is
// redelivered — although AdmitBatch records IDs and bodies sorted.
func TestAdmitBatch(t *testing.T) {
	db := openTemp(t)
	ctx := context.Background()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	body := func(s string) [32]byte { return sha256.Sum256([]byte(s)) }
	batch := []Arrival{
		{ID: "z", Event: "push", Sum: body("b")},
		{ID: "a", Event: "push", Sum: body("b")},
		{ID: "m", Event: "push", Sum: body("a")},
		{ID: "z", Event: "push", Sum: body("c")},
		{ID: "b", Event: "push"},
	}
	want := []Admission{{}, {ReplayOf: "z"}, {}, {Redelivered: true}, {}}
	var got []Admission
	err := db.InTx(ctx, func(tx Tx) error {
		var err error
		got, err = AdmitBatch(ctx, tx, batch, now, time.Hour)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("admissions (-want +got):\n%s", diff)
	}
}
