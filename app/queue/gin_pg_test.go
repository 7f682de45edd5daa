package queue

import (
	"context"
	"log/slog"
	"strings"
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
				if err := migrateTuning(ctx, db, riverpgxv5.New(db.Pool), gin, slog.New(slog.DiscardHandler)); err != nil {
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

// TestRiverGINTuningRefused: a database user that does not own River's
// indexes (they were migrated by another) cannot turn fastupdate off;
// the App still starts, with a warning that says so. The tuning itself
// is checked to fail for that user, so the start's success is the
// warning path's doing, not a tuning that went through.
func TestRiverGINTuningRefused(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Start(t)
	owner, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	if err := migrateTuning(ctx, owner, riverpgxv5.New(owner.Pool), nil, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`CREATE ROLE app LOGIN`, `GRANT ALL ON ALL TABLES IN SCHEMA public TO app`,
		`GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO app`, `GRANT CREATE ON SCHEMA public TO app`} {
		if _, err := owner.Pool.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	app, err := store.Open(ctx, strings.Replace(url, "aepgate@", "app@", 1))
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	var log strings.Builder
	if err := migrateTuning(ctx, app, riverpgxv5.New(app.Pool), riverGINIndexes, slog.New(slog.NewTextHandler(&log, nil))); err != nil {
		t.Errorf("start as a user that does not own River's indexes: %v", err)
	}
	if !strings.Contains(log.String(), "level=WARN") || !strings.Contains(log.String(), "must be owner") {
		t.Errorf("log:\n%s\nwant a warning with PostgreSQL's reason", log.String())
	}
	conn, err := app.Pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	if err := ginDirect(ctx, conn, riverGINIndexes); err == nil {
		t.Error("negative control: the tuning itself succeeded, so the test shows nothing")
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
