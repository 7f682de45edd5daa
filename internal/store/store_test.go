package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/pgtest"
)

func openTemp(t testing.TB) *DB {
	t.Helper()
	db, err := Open(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	if err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := db.Migrate(context.Background()); err != nil {
		t.Fatalf("second migrate: %v", err)
	}
	return db
}

// openPG is a migrated database on a throwaway PostgreSQL server
// (pgtest.Start, which skips the test without one), closed when t ends.
func openPG(t *testing.T) *DB {
	t.Helper()
	db, err := Open(context.Background(), pgtest.Start(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	if err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return db
}

func TestOpenRefusesUnknownURL(t *testing.T) {
	for _, url := range []string{"mysql://x", "aepgate.db", "sqlite:"} {
		if _, err := Open(context.Background(), url); err == nil {
			t.Errorf("Open(%q) succeeded", url)
		}
	}
	for in, want := range map[string]string{
		"postgres://u:secret@h/db":                                       "postgres://u:***@h/db",
		"postgres://u@h/db?sslmode=require&password=secret":              "postgres://u@h/db?sslmode=require&password=***",
		"postgresql://u:secret@h/db?sslpassword=secret&pool_max_conns=4": "postgresql://u:***@h/db?sslpassword=***&pool_max_conns=4",
		"postgress://u:secret@h/db":                                      "postgress://u:***@h/db",
		"sqlite:aepgate.db":                                              "sqlite:aepgate.db",
	} {
		if got := Redact(in); got != want || strings.Contains(got, "secret") {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

// admitOne admits delivery id (a ping, no body memory) inside tx and
// reports whether its ID was new.
func admitOne(ctx context.Context, tx Tx, id string) (bool, error) {
	got, err := AdmitBatch(ctx, tx, []Arrival{{ID: id, Event: "ping"}}, time.Now(), 0)
	if err != nil {
		return false, err
	}
	return !got[0].Redelivered, nil
}

// TestDeliveryOnceThenForgotten: a delivery ID is new once, and
// ForgetDeliveries removes it once it is old.
func TestDeliveryOnceThenForgotten(t *testing.T) {
	db := openTemp(t)
	ctx := context.Background()
	var first, second bool
	for _, p := range []*bool{&first, &second} {
		err := db.InTx(ctx, func(tx Tx) error {
			var err error
			*p, err = admitOne(ctx, tx, "guid-1")
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if !first || second {
		t.Fatalf("first=%v second=%v, want true false", first, second)
	}
	n, err := db.ForgetDeliveries(ctx, time.Now().Add(time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("forget = %d, %v", n, err)
	}
}

func appendN(t *testing.T, db *DB, n int) {
	t.Helper()
	ctx := context.Background()
	for i := range n {
		err := db.InTx(ctx, func(tx Tx) error {
			_, err := Append(ctx, tx, db.Dialect, Entry{Kind: "k", DeliveryID: "d", Subject: "s", Body: map[string]int{"i": i}}, time.Now())
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestLedgerVerify(t *testing.T) {
	tests := []struct {
		name    string
		tamper  string
		wantBad int64
	}{
		{"intact", "", 0},
		{"altered body", `UPDATE aepgate_ledger SET body = '{"i":9}' WHERE seq = 2`, 2},
		{"deleted row", `DELETE FROM aepgate_ledger WHERE seq = 2`, 3},
		{"rehashed row", `UPDATE aepgate_ledger SET hash = 'abc' WHERE seq = 1`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := openTemp(t)
			appendN(t, db, 3)
			if tt.tamper != "" {
				if _, err := db.SQL.Exec(tt.tamper); err != nil {
					t.Fatal(err)
				}
			}
			res, err := db.VerifyLedger(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if res.BadSeq != tt.wantBad {
				t.Errorf("BadSeq = %d (%s), want %d", res.BadSeq, res.Problem, tt.wantBad)
			}
			if tt.tamper == "" {
				var last string
				if err := db.SQL.QueryRow(`SELECT hash FROM aepgate_ledger ORDER BY seq DESC LIMIT 1`).Scan(&last); err != nil {
					t.Fatal(err)
				}
				if res.Head != last {
					t.Errorf("Head = %q, want the last row's hash %q", res.Head, last)
				}
			}
		})
	}
}

// TestLedgerNegativeControl: with the content hash check removed, an
// altered row verifies — the check is what catches it.
func TestLedgerNegativeControl(t *testing.T) {
	db := openTemp(t)
	appendN(t, db, 3)
	if _, err := db.SQL.Exec(`UPDATE aepgate_ledger SET body = '{"i":9}' WHERE seq = 3`); err != nil {
		t.Fatal(err)
	}
	if res, err := db.VerifyLedger(context.Background()); err != nil || res.BadSeq != 3 {
		t.Fatalf("with the content check the altered row 3 should fail; got %+v %v", res, err)
	}
	storedHash := func(r LedgerRow) string { return r.Hash }
	res, err := db.verifyLedger(context.Background(), storedHash)
	if err != nil || !res.OK() {
		t.Fatalf("without the content check the altered last row should pass; got %+v %v", res, err)
	}
}

func TestCheckpointsRunOffTheRequestConnection(t *testing.T) {
	db := openTemp(t)
	var auto int
	if err := db.SQL.QueryRow(`PRAGMA wal_autocheckpoint`).Scan(&auto); err != nil || auto != 0 {
		t.Fatalf("request connection checkpoints itself (wal_autocheckpoint=%d, %v)", auto, err)
	}
	appendN(t, db, 20)
	deadline := time.Now().Add(3 * time.Second)
	for db.checkpoint.passes.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the checkpointer never ran")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestWALShrinksAfterCheckpoint: a 32 MiB burst grows the WAL past
// walSizeLimit; once the checkpointer has copied it back, the next commit
// cuts the file back to the limit.
func TestWALShrinksAfterCheckpoint(t *testing.T) {
	db := openTemp(t)
	wal := db.Where[len("sqlite:"):] + "-wal"
	ctx := context.Background()
	if _, err := db.SQL.ExecContext(ctx, `CREATE TABLE burst (b BLOB)`); err != nil {
		t.Fatal(err)
	}
	for range 32 {
		if _, err := db.SQL.ExecContext(ctx, `INSERT INTO burst VALUES (randomblob(1048576))`); err != nil {
			t.Fatal(err)
		}
	}
	grown := fileSize(t, wal)
	passes := db.checkpoint.passes.Load()
	deadline := time.Now().Add(5 * time.Second)
	for db.checkpoint.passes.Load() < passes+2 {
		if time.Now().After(deadline) {
			t.Fatal("no checkpoint after the burst")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := db.SQL.ExecContext(ctx, `INSERT INTO burst VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	if got := fileSize(t, wal); grown <= walSizeLimit || got > walSizeLimit {
		t.Errorf("WAL %d bytes after the burst, %d after a checkpoint and a commit; want over and then at most %d", grown, got, walSizeLimit)
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

func TestLedgerHasSubject(t *testing.T) {
	db := openTemp(t)
	ctx := context.Background()
	err := db.InTx(ctx, func(tx Tx) error {
		_, err := Append(ctx, tx, db.Dialect, Entry{Kind: "answered", DeliveryID: "d", Subject: "acme/w/item/7", Body: map[string]any{}}, time.Now())
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for subject, want := range map[string]bool{"acme/w/item/7": true, "acme/w/item/70": false, "acme/w/item/": false} {
		if got, err := db.LedgerHasSubject(ctx, subject); err != nil || got != want {
			t.Errorf("LedgerHasSubject(%q) = %v, %v; want %v", subject, got, err, want)
		}
	}
}
