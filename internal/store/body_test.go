package store

import (
	"context"
	"crypto/sha256"
	"testing"
	"time"
)

// bodySteps: admitted with a day's memory, a body is recorded under its
// first delivery ID; the same body under another ID within the memory is a
// replay of the first ID, the first ID again is GitHub's redelivery, a
// record older than the memory is replaced, and ForgetBodies removes old
// records.
func bodySteps(t *testing.T, db *DB) {
	ctx := context.Background()
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	a, b := sha256.Sum256([]byte("a")), sha256.Sum256([]byte("b"))
	for _, step := range []struct {
		name string
		sum  [32]byte
		id   string
		at   time.Time
		want Admission
	}{
		{"first", a, "d1", t0, Admission{}},
		{"replayed under a new ID", a, "d2", t0.Add(time.Hour), Admission{ReplayOf: "d1"}},
		{"redelivered under its ID", a, "d1", t0.Add(2 * time.Hour), Admission{Redelivered: true}},
		{"another body", b, "d3", t0.Add(time.Hour), Admission{}},
		{"after the memory", a, "d4", t0.Add(day + time.Second), Admission{}},
	} {
		var got []Admission
		err := db.InTx(ctx, func(tx Tx) error {
			var err error
			got, err = AdmitBatch(ctx, tx, []Arrival{{ID: step.id, Event: "ping", Sum: step.sum}}, step.at, day)
			return err
		})
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if len(got) != 1 || got[0] != step.want {
			t.Errorf("%s: admissions %+v, want [%+v]", step.name, got, step.want)
		}
	}
	n, err := db.ForgetBodies(ctx, t0.Add(day))
	if err != nil || n != 1 {
		t.Errorf("ForgetBodies = %d, %v; want 1 (body b)", n, err)
	}
}

func TestBodyMemory(t *testing.T) { bodySteps(t, openTemp(t)) }

func TestPostgresBodyMemory(t *testing.T) { bodySteps(t, openPG(t)) }
