package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// cachedDB is a one-connection gated pool on a fresh SQLite file with a
// table t (n INTEGER) holding 1, 2 and 3.
func cachedDB(t *testing.T) *sql.DB {
	t.Helper()
	db, err := openGated("file:"+filepath.Join(t.TempDir(), "c.db")+"?_pragma=journal_mode(WAL)&_txlock=immediate", newWriteGate())
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec(`CREATE TABLE t (n INTEGER)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO t VALUES (1), (2), (3)`); err != nil {
		t.Fatal(err)
	}
	return db
}

// kept is the text of the statements db's one connection keeps, most
// recently used first.
func kept(t *testing.T, db *sql.DB) []string {
	t.Helper()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var out []string
	err = conn.Raw(func(dc any) error {
		for e := dc.(*gatedConn).stmts.order.Front(); e != nil; e = e.Next() {
			out = append(out, e.Value.(*keptStmt).query)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sum(t *testing.T, q interface {
	QueryRow(string, ...any) *sql.Row
}, query string, args ...any) int {
	t.Helper()
	var n int
	if err := q.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestStmtCacheKeepsAndReuses: a statement run twice is prepared once and
// answers with each run's arguments; the most recently used comes first.
func TestStmtCacheKeepsAndReuses(t *testing.T) {
	db := cachedDB(t)
	const q = `SELECT coalesce(sum(n), 0) FROM t WHERE n >= $1`
	for _, tt := range []struct{ min, want int }{{1, 6}, {2, 5}, {4, 0}} {
		if got := sum(t, db, q, tt.min); got != tt.want {
			t.Errorf("n >= %d: sum %d, want %d", tt.min, got, tt.want)
		}
	}
	if _, err := db.Exec(`UPDATE t SET n = n WHERE n = $1`, 1); err != nil {
		t.Fatal(err)
	}
	want := []string{`UPDATE t SET n = n WHERE n = $1`, q, `INSERT INTO t VALUES (1), (2), (3)`, `CREATE TABLE t (n INTEGER)`}
	if diff := cmp.Diff(want, kept(t, db)); diff != "" {
		t.Errorf("kept statements (-want +got):\n%s", diff)
	}
}

// TestStmtCacheBusy: a statement whose rows are still open is run again
// (the same text, inside one transaction) without resetting them, and is
// kept for use again once they close.
func TestStmtCacheBusy(t *testing.T) {
	db := cachedDB(t)
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	const q = `SELECT n FROM t ORDER BY n`
	outer, err := tx.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for outer.Next() {
		var n int
		if err := outer.Scan(&n); err != nil {
			t.Fatal(err)
		}
		inner := sum(t, tx, `SELECT count(*) FROM (`+q+`)`)
		var again int
		if err := tx.QueryRow(q).Scan(&again); err != nil {
			t.Fatal(err)
		}
		got = append(got, n*100+inner*10+again)
		if len(got) > 3 {
			t.Fatalf("the outer rows started again: %v", got)
		}
	}
	if err := outer.Err(); err != nil {
		t.Fatal(err)
	}
	outer.Close()
	if diff := cmp.Diff([]int{131, 231, 331}, got); diff != "" {
		t.Errorf("outer rows read beside the same statement (-want +got):\n%s", diff)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := kept(t, db); !slices.Contains(got, q) {
		t.Errorf("%q not kept after its rows closed: %q", q, got)
	}
}

// TestStmtCacheBound: a connection keeps at most stmtCacheSize statements,
// dropping the least recently used, never one whose rows are open.
func TestStmtCacheBound(t *testing.T) {
	db := cachedDB(t)
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	const busy = `SELECT n FROM t`
	rows, err := tx.Query(busy)
	if err != nil {
		t.Fatal(err)
	}
	for i := range stmtCacheSize + 10 {
		if got := sum(t, tx, fmt.Sprintf(`SELECT %d + count(*) FROM t`, i)); got != i+3 {
			t.Fatalf("statement %d: %d", i, got)
		}
	}
	rows.Close()
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	got := kept(t, db)
	if len(got) > stmtCacheSize {
		t.Errorf("%d statements kept, want at most %d", len(got), stmtCacheSize)
	}
	if !slices.Contains(got, busy) {
		t.Errorf("the statement whose rows were open was dropped")
	}
	if slices.Contains(got, `SELECT 0 + count(*) FROM t`) {
		t.Errorf("the least recently used statement is still kept")
	}
}

// TestStmtCacheSchemaChange: a kept statement sees a column added after it
// was prepared (SQLite prepares it again by itself).
func TestStmtCacheSchemaChange(t *testing.T) {
	db := cachedDB(t)
	const q = `SELECT * FROM t LIMIT 1`
	cols := func() []string {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		c, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if diff := cmp.Diff([]string{"n"}, cols()); diff != "" {
		t.Fatalf("columns before (-want +got):\n%s", diff)
	}
	if _, err := db.Exec(`ALTER TABLE t ADD COLUMN m TEXT`); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"n", "m"}, cols()); diff != "" {
		t.Errorf("columns after ALTER TABLE (-want +got):\n%s", diff)
	}
}
