package cli

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// serveFiles writes a key and a secret with the given modes and returns
// serve's arguments for them and a database under dir.
func serveFiles(t *testing.T, dir string, keyMode, secretMode os.FileMode) []string {
	t.Helper()
	key := writeKey(t, dir)
	secret := filepath.Join(dir, "secret")
	os.WriteFile(secret, []byte("s3cret\n"), 0o600)
	os.Chmod(key, keyMode)
	os.Chmod(secret, secretMode)
	return []string{"serve", "--app-id", "1", "--private-key-file", key, "--webhook-secret-file", secret,
		"--database", "sqlite:" + filepath.Join(dir, "aepgate.db"), "--github-url", "http://127.0.0.1:1/"}
}

// takenAddr returns an address something already listens on.
func takenAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln.Addr().String()
}

// TestServeCreatesNoDatabaseWhenTheListenerFails: with the address taken,
// serve exits 1 before the database file exists.
func TestServeCreatesNoDatabaseWhenTheListenerFails(t *testing.T) {
	dir := t.TempDir()
	args := append(serveFiles(t, dir, 0o600, 0o600), "--addr", takenAddr(t))
	code, _, errOut := runCLI(t, args...)
	if code != 1 || !strings.Contains(errOut, "listen on") {
		t.Fatalf("exit %d, stderr %q; want 1 and \"listen on\"", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "aepgate.db")); !os.IsNotExist(err) {
		t.Errorf("database file exists after a failed listen (%v)", err)
	}
}

// TestServeWarnsOnKeyOrSecretReadableByOthers: a key or secret file that
// group or others may read is a warning naming the flag; mode 0600 is
// not.
func TestServeWarnsOnKeyOrSecretReadableByOthers(t *testing.T) {
	for _, tc := range []struct {
		name             string
		keyMode, secMode os.FileMode
		wantFlag         string
	}{
		{"private", 0o600, 0o600, ""},
		{"key readable by group", 0o640, 0o600, "--private-key-file"},
		{"secret readable by all", 0o600, 0o644, "--webhook-secret-file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append(serveFiles(t, t.TempDir(), tc.keyMode, tc.secMode), "--addr", takenAddr(t))
			_, _, errOut := runCLI(t, args...)
			warned := strings.Contains(errOut, "readable by group or others")
			if tc.wantFlag != "" && (!warned || !strings.Contains(errOut, `"flag":"`+tc.wantFlag+`"`)) {
				t.Errorf("stderr %q lacks the warning for %s", errOut, tc.wantFlag)
			}
			if tc.wantFlag == "" && warned {
				t.Errorf("stderr %q warns about private files", errOut)
			}
		})
	}
}

// TestServeDatabaseFileIsPrivate: a started App's SQLite file is mode
// 0600, and SIGINT (ctx cancelled) ends serve with exit 0.
func TestServeDatabaseFileIsPrivate(t *testing.T) {
	dir := t.TempDir()
	args := append(serveFiles(t, dir, 0o600, 0o600), "--addr", "127.0.0.1:0")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out bytes.Buffer
	var errb lockedBuffer
	done := make(chan int, 1)
	go func() { done <- runFull(ctx, args, strings.NewReader(""), &out, &errb) }()
	db := filepath.Join(dir, "aepgate.db")
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(errb.String(), "aepgate serving"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("serve did not start:\n%s", errb.String())
		}
	}
	fi, err := os.Stat(db)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("database file: %v, mode %v; want 0600", err, fi.Mode().Perm())
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("exit %d after cancel:\n%s", code, errb.String())
	}
}

// lockedBuffer is a bytes.Buffer safe to read while another goroutine
// writes to it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
