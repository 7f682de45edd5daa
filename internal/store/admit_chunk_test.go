package store

import (
	"context"
	"crypto/sha256"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestAdmitBatchLargeMatchesOneByOne: a batch of several statements' worth
// of rows (admitChunk), with IDs and bodies repeated within it and across
// an earlier batch, gets the answers the same arrivals get admitted one by
// one in arrival order on another database.
func TestAdmitBatchLargeMatchesOneByOne(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	var earlier, batch []Arrival
	for i := range 40 {
		earlier = append(earlier, Arrival{ID: fmt.Sprintf("e%d", i), Event: "push", Sum: sha256.Sum256(fmt.Appendf(nil, "b%d", i*7))})
	}
	for i := range 3*admitChunk + 17 {
		a := Arrival{ID: fmt.Sprintf("d%d", i%700), Event: "push", Sum: sha256.Sum256(fmt.Appendf(nil, "b%d", i%500))}
		if i%11 == 0 {
			a.ID = fmt.Sprintf("e%d", i%40)
		}
		if i%13 == 0 {
			a.Sum = [32]byte{}
		}
		batch = append(batch, a)
	}
	admit := func(db *DB, as []Arrival) []Admission {
		t.Helper()
		var got []Admission
		err := db.InTx(ctx, func(tx Tx) error {
			a, err := AdmitBatch(ctx, tx, as, now, time.Hour)
			got = a
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	whole, single := openTemp(t), openTemp(t)
	admit(whole, earlier)
	admit(single, earlier)
	got := admit(whole, batch)
	var want []Admission
	for _, a := range batch {
		want = append(want, admit(single, []Arrival{a})...)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("admissions (-one by one +whole batch):\n%s", diff)
	}
}
