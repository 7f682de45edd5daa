package store

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/testkit/pgtest"
)

// TestRejudgeCounts: on both engines requests count up, a judgement
// covers those made before it, and the ones after it stay pending from
// its start, and an older judgement never lowers what was covered.
func TestRejudgeCounts(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			var db *DB
			if engine == "sqlite" {
				db = openTemp(t)
			} else {
				if testing.Short() {
					t.Skip("PostgreSQL: runs without -short")
				}
				var err error
				if db, err = Open(context.Background(), pgtest.Start(t)); err != nil {
					t.Fatal(err)
				}
				defer db.Close()
				if err := db.Migrate(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			ctx := context.Background()
			t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
			request := func(at time.Time) {
				t.Helper()
				if err := db.InTx(ctx, func(tx Tx) error { return RequestRejudge(ctx, tx, "acme/w#2", at) }); err != nil {
					t.Fatal(err)
				}
			}
			state := func() Rejudge {
				t.Helper()
				r, err := db.RejudgeState(ctx, "acme/w#2")
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			if got := state(); got.Pending() {
				t.Errorf("no request yet, state %+v pending", got)
			}
			request(t0)
			request(t0.Add(time.Second))
			if diff := cmp.Diff(Rejudge{Requested: 2, Last: t0.Add(time.Second), PendingSince: t0}, state()); diff != "" {
				t.Errorf("after 2 requests (-want +got):\n%s", diff)
			}
			start := t0.Add(2 * time.Second)
			request(t0.Add(3 * time.Second)) // while the judgement runs
			if err := db.RejudgeCovered(ctx, "acme/w#2", 2, start); err != nil {
				t.Fatal(err)
			}
			got := state()
			if diff := cmp.Diff(Rejudge{Requested: 3, Judged: 2, Last: t0.Add(3 * time.Second), PendingSince: start}, got); diff != "" || !got.Pending() {
				t.Errorf("after the judgement (-want +got):\n%s", diff)
			}
			if err := db.RejudgeCovered(ctx, "acme/w#2", 1, start); err != nil {
				t.Fatal(err)
			}
			if got := state().Judged; got != 2 {
				t.Errorf("an older judgement lowered judged to %d", got)
			}
		})
	}
}
