package store

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// recordedSteps admits some deliveries and asks which of a longer list,
// past one statement's chunk, are recorded.
func recordedSteps(t *testing.T, db *DB) {
	t.Helper()
	ctx := context.Background()
	var as []Arrival
	var ask []string
	want := map[string]bool{}
	for i := range admitChunk + 10 {
		id := fmt.Sprintf("guid-%04d", i)
		ask = append(ask, id)
		if i%3 == 0 {
			as = append(as, Arrival{ID: id, Event: "issues"})
			want[id] = true
		}
	}
	err := db.InTx(ctx, func(tx Tx) error {
		_, err := AdmitBatch(ctx, tx, as, time.Now(), 0)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := db.RecordedDeliveries(ctx, append(ask, ask[0]))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("RecordedDeliveries (-want +got):\n%s", diff)
	}
	if got, err := db.RecordedDeliveries(ctx, nil); err != nil || len(got) != 0 {
		t.Errorf("RecordedDeliveries of none = %v, %v", got, err)
	}
}

func TestRecordedDeliveries(t *testing.T) { recordedSteps(t, openTemp(t)) }

func TestPostgresRecordedDeliveries(t *testing.T) { recordedSteps(t, openPG(t)) }
