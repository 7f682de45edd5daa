package queue

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/riverqueue/river"

	"github.com/aepgate/aepgate/internal/store"
)

// riverRow is one river_job row as text: every column's SQLite type and
// value (quote), by column name.
type riverRow map[string]string

// riverRows reads every river_job row in order of id, each column as
// "typeof:quote(value)", whatever columns River's migrations made.
func riverRows(t *testing.T, db *store.DB) []riverRow {
	t.Helper()
	ctx := context.Background()
	cols, err := db.SQL.QueryContext(ctx, `SELECT name FROM pragma_table_info('river_job') ORDER BY cid`)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for cols.Next() {
		var n string
		if err := cols.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	cols.Close()
	if len(names) == 0 {
		t.Fatal("river_job has no columns")
	}
	var out []riverRow
	for _, id := range ids(t, db) {
		row := riverRow{}
		for _, n := range names {
			var v string
			q := `SELECT typeof("` + n + `") || ':' || quote("` + n + `") FROM river_job WHERE id = $1`
			if err := db.SQL.QueryRowContext(ctx, q, id).Scan(&v); err != nil {
				t.Fatal(err)
			}
			row[n] = v
		}
		out = append(out, row)
	}
	return out
}

func ids(t *testing.T, db *store.DB) []int64 {
	t.Helper()
	rows, err := db.SQL.QueryContext(context.Background(), `SELECT id FROM river_job ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		out = append(out, id)
	}
	return out
}

// riverTime is how riversqlite writes a time: 'YYYY-MM-DD HH:MM:SS.SSS'.
var riverTime = regexp.MustCompile(`^text:'\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}'$`)

// rowDiff compares a row insertSQLiteDeliveries wrote with one River wrote
// for the same job: equal but for the id, and the two times, which must be
// in River's format.
func rowDiff(ours, rivers riverRow) string {
	clean := func(r riverRow) riverRow {
		c := riverRow{}
		for k, v := range r {
			switch k {
			case "id":
			case "created_at", "scheduled_at":
				c[k] = "in River's time format"
				if !riverTime.MatchString(v) {
					c[k] = v
				}
			default:
				c[k] = v
			}
		}
		return c
	}
	return cmp.Diff(clean(rivers), clean(ours))
}

// TestSQLiteDeliveryRowsAreRiversOwn: a delivery job written by
// insertSQLiteDeliveries is, column by column, the row River's
// InsertManyFastTx writes for the same job; the comparison sees a row that
// differs in one column (the negative control).
func TestSQLiteDeliveryRowsAreRiversOwn(t *testing.T) {
	ctx := context.Background()
	db := tempDB(t)
	q := newTestQueue(t, db, Runners{Handles: func(string) bool { return true }})
	d := Delivery{DeliveryID: "d-1", Event: "pull_request", Payload: Payload(`{"action":"opened","pull_request":{"number":2,"body":"a \"quoted\" é"}}`)}
	err := db.InWriteTx(ctx, func(tx store.Tx) error {
		if err := q.e.insertManyTx(ctx, tx, []river.InsertManyParams{{Args: d}}); err != nil {
			return err
		}
		return insertSQLiteDeliveries(ctx, tx, []Delivery{d})
	})
	if err != nil {
		t.Fatal(err)
	}
	rows := riverRows(t, db)
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	if diff := rowDiff(rows[1], rows[0]); diff != "" {
		t.Errorf("our row differs from River's (-River +ours):\n%s", diff)
	}

	if _, err := db.SQL.ExecContext(ctx, `UPDATE river_job SET priority = 2 WHERE id = $1`, ids(t, db)[1]); err != nil {
		t.Fatal(err)
	}
	if diff := rowDiff(riverRows(t, db)[1], rows[0]); diff == "" {
		t.Error("negative control: a row with another priority compared equal to River's")
	}
}

// TestSQLiteDeliveryJobsAreWorked: River finds, decodes and works the jobs
// insertSQLiteDeliveries wrote, each once, across more rows than one
// statement holds.
func TestSQLiteDeliveryJobsAreWorked(t *testing.T) {
	ctx := context.Background()
	db := tempDB(t)
	got := make(chan Delivery, 2*sqliteJobChunk)
	q := newTestQueue(t, db, Runners{Handles: func(string) bool { return true },
		Delivery: func(_ context.Context, d Delivery, _ int) error { got <- d; return nil }})
	want := map[string]bool{}
	var ds []Delivery
	for i := range sqliteJobChunk + 3 {
		d := Delivery{DeliveryID: fmt.Sprintf("d-%d", i), Event: "issues", Payload: Payload(`{"n":1}`)}
		ds = append(ds, d)
		want[d.DeliveryID] = true
	}
	if err := db.InWriteTx(ctx, func(tx store.Tx) error { return insertSQLiteDeliveries(ctx, tx, ds) }); err != nil {
		t.Fatal(err)
	}
	if err := q.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Stop(context.Background()) })
	seen := map[string]bool{}
	timeout := time.After(30 * time.Second)
	for len(seen) < len(want) {
		select {
		case d := <-got:
			if seen[d.DeliveryID] || !want[d.DeliveryID] {
				t.Fatalf("job %q worked twice or never inserted", d.DeliveryID)
			}
			if d.Event != "issues" || string(d.Payload) != `{"n":1}` {
				t.Fatalf("job %q decoded as %+v", d.DeliveryID, d)
			}
			seen[d.DeliveryID] = true
		case <-timeout:
			t.Fatalf("%d of %d jobs worked in 30 s", len(seen), len(want))
		}
	}
}

// newTestQueue is a queue on db with short polls; its workers start only
// when the test starts them.
func newTestQueue(t *testing.T, db *store.DB, run Runners) *Queue {
	t.Helper()
	q, err := New(context.Background(), db, Config{Workers: 4, JobTimeout: time.Minute, RescueAfter: time.Hour,
		ReconcileEvery: time.Hour, RetryBase: time.Second, MaxRetryDelay: time.Minute,
		PollInterval: 50 * time.Millisecond, ReplayMemory: 24 * time.Hour, Logger: slog.New(slog.DiscardHandler)}, run)
	if err != nil {
		t.Fatal(err)
	}
	return q
}
