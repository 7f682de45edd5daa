package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps failures instead of failing the test.
type recorder struct {
	testing.TB
	failed, fatal bool
	msg           string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.failed = true
	r.msg = format
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.failed, r.fatal = true, true
	r.msg = format
	panic(r)
}

// check runs CheckString against r, catching the panic that stands in for
// Fatalf's runtime.Goexit.
func check(r *recorder, path, got string) {
	defer func() {
		if p := recover(); p != nil && p != r {
			panic(p)
		}
	}()
	CheckString(r, path, got)
}

func TestCheck(t *testing.T) {
	if Updating() {
		t.Skip("this test checks comparison, not -update")
	}
	path := filepath.Join(t.TempDir(), "x.golden")
	if err := os.WriteFile(path, []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	r := &recorder{TB: t}
	check(r, path, "a\n")
	if r.failed {
		t.Errorf("equal content failed the test: %s", r.msg)
	}

	r = &recorder{TB: t}
	check(r, path, "b\n")
	if !r.failed || r.fatal || !strings.Contains(r.msg, "go test -update") {
		t.Errorf("different content: failed %v, fatal %v, message %q; want a non-fatal error with the -update hint", r.failed, r.fatal, r.msg)
	}

	r = &recorder{TB: t}
	check(r, filepath.Join(t.TempDir(), "missing.golden"), "a\n")
	if !r.fatal || !strings.Contains(r.msg, "go test -update") {
		t.Errorf("missing file: fatal %v, message %q; want a fatal error with the -update hint", r.fatal, r.msg)
	}
}
