// Package golden compares test output with golden files and rewrites them
// when the tests run with -update. It is a test helper: only _test.go files
// import it.
//
// Every package whose tests use it shares the one flag:
//
//	go test ./protocol/lint -update
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files")

// Updating reports whether the tests run with -update, for tests that
// rewrite their golden files in their own way.
func Updating() bool { return *update }

// Check compares got with the golden file at path. Under -update it first
// writes got to path, creating its directory. A missing file fails the test
// at once; a difference is reported as a cmp.Diff (-want +got).
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file: %v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s(if the change is intended, run go test -update)", path, diff)
	}
}

// CheckString is Check for text.
func CheckString(t testing.TB, path, got string) {
	t.Helper()
	Check(t, path, []byte(got))
}
