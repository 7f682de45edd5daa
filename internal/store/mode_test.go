//go:build unix

package store

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestSQLiteFilesArePrivate: the database file and its WAL are created
// mode 0600 under the usual 022 umask. With the protection removed (a
// create that leaves the file to SQLite) they are readable by others.
func TestSQLiteFilesArePrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	for _, tc := range []struct {
		name        string
		create      func(string) error
		wantPrivate bool
	}{
		{"createPrivate", createPrivate, true},
		{"left to SQLite", func(string) error { return nil }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "a.db")
			db, err := openSQLite(context.Background(), path, tc.create)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if err := db.Migrate(context.Background()); err != nil {
				t.Fatal(err)
			}
			if err := db.InTx(context.Background(), func(tx Tx) error {
				_, err := admitOne(context.Background(), tx, "guid")
				return err
			}); err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{path, path + "-wal"} {
				fi, err := os.Stat(p)
				if err != nil {
					t.Fatal(err)
				}
				if private := fi.Mode().Perm()&0o077 == 0; private != tc.wantPrivate {
					t.Errorf("%s: mode %v, private %v; want private %v", filepath.Base(p), fi.Mode().Perm(), private, tc.wantPrivate)
				}
			}
		})
	}
}

// TestSQLiteExistingFileKeepsItsMode: an existing database is opened as it
// is; its mode is the operator's choice.
func TestSQLiteExistingFileKeepsItsMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	if err := os.WriteFile(path, nil, 0o640); err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o640)
	db, err := Open(context.Background(), "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640 kept", fi.Mode().Perm())
	}
}
