package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// heldSync replaces db's log sync with one that reports each start on
// started and returns what release sends it.
func heldSync(db *DB) (started chan struct{}, release chan error) {
	started, release = make(chan struct{}, 16), make(chan error)
	db.walSync.sync = func() error {
		started <- struct{}{}
		return <-release
	}
	return started, release
}

func insertRow(db *DB, id string) func(Tx) error {
	return func(tx Tx) error {
		_, err := admitOne(context.Background(), tx, id)
		return err
	}
}

// TestWriteTxWaitsForSync: InWriteTx returns only after a sync of the log
// that started after its commit returned; the negative control, a commit
// that does not wait (InWriteTxNoSync's commit alone), returns before the
// sync has even started.
func TestWriteTxWaitsForSync(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name      string
		write     func(db *DB, fn func(Tx) error) error
		wantWaits bool
	}{
		{"InWriteTx", func(db *DB, fn func(Tx) error) error { return db.InWriteTx(ctx, fn) }, true},
		{"negative control: no wait", func(db *DB, fn func(Tx) error) error {
			_, err := db.InWriteTxNoSync(ctx, fn)
			return err
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := openTemp(t)
			started, release := heldSync(db)
			returned := make(chan error, 1)
			go func() { returned <- tt.write(db, insertRow(db, "d-1")) }()
			select {
			case <-started:
				select {
				case err := <-returned:
					t.Errorf("returned (%v) while the sync was still running", err)
				default:
				}
				release <- nil
			case err := <-returned:
				if tt.wantWaits {
					t.Fatalf("returned (%v) before the log was synced", err)
				}
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err := <-returned; err != nil {
				t.Fatal(err)
			}
			if !tt.wantWaits {
				t.Error("negative control: the check saw a wait where there is none")
			}
		})
	}
}

// TestWALSyncShared: commits that finished while a sync ran are covered
// together by the next one: one sync for the first commit, one for the
// five after it.
func TestWALSyncShared(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	started, release := heldSync(db)
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	wg.Go(func() { errs <- db.InWriteTx(ctx, insertRow(db, "first")) })
	<-started
	for _, id := range []string{"a", "b", "c", "d", "e"} {
		wg.Go(func() { errs <- db.InWriteTx(ctx, insertRow(db, id)) })
	}
	for deadline := time.Now().Add(10 * time.Second); ; {
		db.walSync.mu.Lock()
		n := db.walSync.committed
		db.walSync.mu.Unlock()
		if n == 6 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of 6 commits while the first sync ran", n)
		}
		time.Sleep(time.Millisecond)
	}
	release <- nil
	<-started
	release <- nil
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	select {
	case <-started:
		t.Error("a third sync for six commits")
	default:
	}
}

// TestWALSyncFailure: a failed sync fails the commits it covered, which
// stay committed (a redelivery finds its ID); the next commit is synced
// afresh.
func TestWALSyncFailure(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	started, release := heldSync(db)
	done := make(chan error, 1)
	go func() { done <- db.InWriteTx(ctx, insertRow(db, "d-1")) }()
	<-started
	release <- errors.New("injected: EIO")
	if err := <-done; err == nil || err.Error() != "sync the write-ahead log: injected: EIO" {
		t.Fatalf("InWriteTx: %v; want the sync's error", err)
	}
	var fresh bool
	err := db.InTx(ctx, func(tx Tx) error {
		var err error
		fresh, err = admitOne(ctx, tx, "d-1")
		return err
	})
	if err != nil || fresh {
		t.Errorf("d-1 after a failed sync: new %v, %v; want recorded before", fresh, err)
	}
	go func() { done <- db.InWriteTx(ctx, insertRow(db, "d-2")) }()
	<-started
	release <- nil
	if err := <-done; err != nil {
		t.Errorf("the commit after a failed sync: %v", err)
	}
}

// TestSyncFile: the log of a database that committed is synced; a file
// that is not there is an error, not created.
func TestSyncFile(t *testing.T) {
	db := openTemp(t)
	if err := db.InWriteTx(context.Background(), insertRow(db, "d-1")); err != nil {
		t.Fatal(err)
	}
	path := db.Where[len("sqlite:"):] + "-wal"
	if err := syncFile(path); err != nil {
		t.Errorf("sync %s: %v", path, err)
	}
	missing := filepath.Join(t.TempDir(), "none-wal")
	if err := syncFile(missing); err == nil {
		t.Error("a missing log synced")
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("syncing a missing log created it")
	}
}
