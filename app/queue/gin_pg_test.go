package queue

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/internal/testkit/pgtest"
)

// TestRiverGINIndexesHoldNoPendingList migrates River on PostgreSQL,
// inserts jobs, migrates again (a restart, or an upgrade to this
// version), inserts more and reads the pending list of River's GIN
// indexes (pageinspect's gin_metapage_info): tuned, nothing is left for
// a later insert to merge, also of a database that held a pending list
// before; the negative control migrates without the tuning and finds
// entries there.
func TestRiverGINIndexesHoldNoPendingList(t *testing.T) {
	for _, tc := range []struct {
		name          string
		before, after []string
		wantPending   bool
	}{
		{"tuned", riverGINIndexes, riverGINIndexes, false},
		{"upgraded", nil, riverGINIndexes, false},
		{"untuned (negative control)", nil, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			db, err := store.Open(ctx, pgtest.Start(t))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Pool.Exec(ctx, `CREATE EXTENSION pageinspect`); err != nil {
				t.Fatal(err)
			}
			for _, gin := range [][]string{tc.before, tc.after} {
				if err := migrateTuning(ctx, db, riverpgxv5.New(db.Pool), gin); err != nil {
					t.Fatal(err)
				}
				if _, err := db.Pool.Exec(ctx, `INSERT INTO river_job (args, metadata, kind)
					SELECT jsonb_build_object('delivery_id', 'd-' || g, 'event', 'pull_request'), jsonb_build_object('n', g), 'delivery'
					FROM generate_series(1, 500) g`); err != nil {
					t.Fatal(err)
				}
			}
			for _, name := range riverGINIndexes {
				if got := pendingTuples(t, db.Pool, name); (got > 0) != tc.wantPending {
					t.Errorf("%s: %d pending entries, want pending %v", name, got, tc.wantPending)
				}
			}
		})
	}
}

// pendingTuples is how many entries the GIN index name holds in its
// pending list.
func pendingTuples(t *testing.T, pool *pgxpool.Pool, name string) int64 {
	t.Helper()
	var n int64
	if err := pool.QueryRow(context.Background(), `SELECT n_pending_tuples FROM gin_metapage_info(get_raw_page($1, 0))`, name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
