package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// gatedPair opens two single-connection pools on one SQLite file with
// busy_timeout 0, so that a write finding SQLite's lock taken fails at
// once with SQLITE_BUSY instead of sleeping: sharing gate, the second
// waits for the first instead (nil gate: the negative control, no gate).
func gatedPair(t *testing.T, gate writeGate) (a, b *sql.DB) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gate.db")
	dsn := "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(0)&_txlock=immediate"
	open := func() *sql.DB {
		db, err := openGated(dsn, gate)
		if err != nil {
			t.Fatal(err)
		}
		db.SetMaxOpenConns(1)
		t.Cleanup(func() { db.Close() })
		return db
	}
	a, b = open(), open()
	if _, err := a.Exec(`CREATE TABLE t (n INTEGER)`); err != nil {
		t.Fatal(err)
	}
	return a, b
}

// TestWriteGate: a write transaction on one connection while another
// holds SQLite's write lock — in a transaction, or in an autocommit
// statement whose rows are still open — waits for it and then commits;
// with the gate removed, the same write finds the database locked.
func TestWriteGate(t *testing.T) {
	ctx := context.Background()
	holds := map[string]func(t *testing.T, a *sql.DB) (release func()){
		"transaction": func(t *testing.T, a *sql.DB) func() {
			tx, err := a.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tx.Exec(`INSERT INTO t VALUES (1)`); err != nil {
				t.Fatal(err)
			}
			return func() {
				if err := tx.Commit(); err != nil {
					t.Error(err)
				}
			}
		},
		"autocommit rows": func(t *testing.T, a *sql.DB) func() {
			if _, err := a.Exec(`INSERT INTO t VALUES (1), (2)`); err != nil {
				t.Fatal(err)
			}
			rows, err := a.Query(`-- name: Bump :many
UPDATE t SET n = n + 1 RETURNING n`)
			if err != nil {
				t.Fatal(err)
			}
			if !rows.Next() {
				t.Fatal("no row returned")
			}
			return func() {
				if err := rows.Close(); err != nil {
					t.Error(err)
				}
			}
		},
	}
	for name, hold := range holds {
		for _, gated := range []bool{true, false} {
			t.Run(name+map[bool]string{true: "/gated", false: "/no gate"}[gated], func(t *testing.T) {
				var gate writeGate
				if gated {
					gate = newWriteGate()
				}
				a, b := gatedPair(t, gate)
				release := hold(t, a)
				done := make(chan error, 1)
				go func() {
					_, err := b.Exec(`INSERT INTO t VALUES (9)`)
					done <- err
				}()
				if !gated {
					err := <-done
					release()
					if err == nil || !strings.Contains(err.Error(), "locked") {
						t.Fatalf("without the gate the second write got %v; want the database locked", err)
					}
					return
				}
				select {
				case err := <-done:
					t.Fatalf("the second write returned (%v) while the first held the lock", err)
				case <-time.After(50 * time.Millisecond):
				}
				release()
				if err := <-done; err != nil {
					t.Fatalf("the second write, after the first released the lock: %v", err)
				}
			})
		}
	}
}

// TestWriteGateReads: a SELECT outside a transaction does not wait for a
// writer holding the gate (reads never take SQLite's write lock in WAL
// mode), and a write whose context ends while it waits gives up without
// keeping the gate.
func TestWriteGateReads(t *testing.T) {
	ctx := context.Background()
	gate := newWriteGate()
	a, b := gatedPair(t, gate)
	tx, err := a.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var n int
	if err := b.QueryRowContext(rctx, `/* count */ SELECT count(*) FROM t`).Scan(&n); err != nil {
		t.Fatalf("a read while a write transaction is open: %v", err)
	}
	wctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, err := b.ExecContext(wctx, `INSERT INTO t VALUES (3)`); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a write whose context ended while it waited: %v; want the deadline", err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.ExecContext(ctx, `INSERT INTO t VALUES (4)`); err != nil {
		t.Fatalf("a write after the gate was free again: %v", err)
	}
}

func TestReadOnly(t *testing.T) {
	tests := []struct {
		query string
		want  bool
	}{
		{"SELECT 1", true},
		{"  select * from t", true},
		{"-- name: JobGetByID :one\nSELECT * FROM river_job WHERE id = ?", true},
		{"/* a */ -- b\n EXPLAIN QUERY PLAN SELECT 1", true},
		{"SELECTED", false},
		{"-- name: JobGetAvailable :many\nUPDATE river_job SET state = 'running' RETURNING *", false},
		{"WITH x AS (SELECT 1) DELETE FROM t", false},
		{"INSERT INTO t VALUES (1)", false},
		{"PRAGMA wal_checkpoint", false},
		{"-- only a comment", false},
		{"/* unterminated", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := readOnly(tt.query); got != tt.want {
			t.Errorf("readOnly(%q) = %v; want %v", tt.query, got, tt.want)
		}
	}
}
