package store

import (
	"context"
	"database/sql"
	"errors"
	"testing"
)

// TestInWriteTx: what the webhook writer's connection commits is the
// shared connection's database (seen there at once), what it rolls back
// is not, and an in-memory database has no second connection.
func TestInWriteTx(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	if db.writer == nil {
		t.Fatal("a SQLite file has no writer connection")
	}
	record := func(id string, fail bool) error {
		return db.InWriteTx(ctx, func(tx Tx) error {
			if _, err := admitOne(ctx, tx, id); err != nil {
				return err
			}
			if fail {
				return errors.New("injected")
			}
			return nil
		})
	}
	if err := record("kept", false); err != nil {
		t.Fatal(err)
	}
	if err := record("dropped", true); err == nil {
		t.Fatal("a failing transaction committed")
	}
	for id, want := range map[string]bool{"kept": false, "dropped": true} {
		var fresh bool
		err := db.InTx(ctx, func(tx Tx) error {
			var err error
			fresh, err = admitOne(ctx, tx, id)
			return err
		})
		if err != nil || fresh != want {
			t.Errorf("%s on the shared connection: new %v, %v; want new %v", id, fresh, err, want)
		}
	}
	mem, err := Open(ctx, "sqlite::memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	if mem.writer != nil {
		t.Error("an in-memory database has a second connection (another database)")
	}
}

// TestWriterCommitsWithoutSync: both connections commit with synchronous
// NORMAL (1): the writer's commits are synced after they commit, by
// walSyncer (TestWriteTxWaitsForSync).
func TestWriterCommitsWithoutSync(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	for name, c := range map[string]interface {
		QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
	}{"writer": db.writer, "shared": db.SQL} {
		var got int
		if err := c.QueryRowContext(ctx, `PRAGMA synchronous`).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != 1 {
			t.Errorf("%s connection: synchronous %d; want 1", name, got)
		}
	}
	if db.walSync == nil {
		t.Error("a SQLite file's writer has no log syncer")
	}
}
