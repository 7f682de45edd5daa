package store

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// attemptSteps keeps an attempt index the way the App does: deliveries
// record and remove attempts, a full listing rebuilds the index and makes
// it complete, a found gap makes it forget.
func attemptSteps(t *testing.T, db *DB) {
	t.Helper()
	ctx := context.Background()
	t0 := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	check := func(step string, unit int, want []int, wantComplete bool) {
		t.Helper()
		got, complete, err := db.UnitAttempts(ctx, "acme/app", unit)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if diff := cmp.Diff(want, got); diff != "" || complete != wantComplete {
			t.Errorf("%s: unit #%d complete %v (want %v), attempts (-want +got):\n%s", step, unit, complete, wantComplete, diff)
		}
	}
	record := func(pr, unit int, open bool, at time.Time) {
		t.Helper()
		if err := db.RecordAttempt(ctx, "acme/app", pr, unit, open, at); err != nil {
			t.Fatal(err)
		}
	}
	check("empty", 1, nil, false)
	record(10, 1, true, t0)
	record(11, 1, true, t0)
	record(12, 2, true, t0)
	record(13, 1, true, t0)
	record(13, 0, true, t0.Add(time.Second))  // edited to name no unit
	record(11, 1, false, t0.Add(time.Second)) // closed
	if err := db.RecordAttempt(ctx, "acme/other", 10, 1, true, t0); err != nil {
		t.Fatal(err)
	}
	check("from deliveries, never listed", 1, []int{10}, false)

	// A listing that began at t0+1m saw #10 now naming #2 and #14 naming #1;
	// #20 was recorded by a delivery after the listing began, which it
	// stays; #12, recorded before and not listed, was closed meanwhile.
	record(20, 1, true, t0.Add(2*time.Minute))
	if err := db.IndexAttempts(ctx, "acme/app", map[int]int{10: 2, 14: 1, 20: 3}, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	check("listed", 1, []int{14, 20}, true)
	check("listed", 2, []int{10}, true)
	check("listed", 3, nil, true)
	if got, complete, err := db.UnitAttempts(ctx, "acme/other", 1); err != nil || complete || len(got) != 1 {
		t.Errorf("another repository's index: %v complete %v, %v", got, complete, err)
	}

	record(21, 1, true, t0.Add(3*time.Minute))
	check("kept by deliveries", 1, []int{14, 20, 21}, true)
	if err := db.ForgetAttemptIndex(ctx, "acme/app"); err != nil {
		t.Fatal(err)
	}
	check("forgotten", 1, []int{14, 20, 21}, false)
	if err := db.IndexAttempts(ctx, "acme/app", map[int]int{14: 1}, t0.Add(4*time.Minute)); err != nil {
		t.Fatal(err)
	}
	check("listed again", 1, []int{14}, true)
}

func TestAttemptIndex(t *testing.T) { attemptSteps(t, openTemp(t)) }

func TestPostgresAttemptIndex(t *testing.T) { attemptSteps(t, openPG(t)) }
