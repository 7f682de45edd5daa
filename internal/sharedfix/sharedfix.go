// Package sharedfix finds the project's shared folder (../shared beside the
// repository root: specifications and real GitHub fixtures) for tests, and
// skips a test with a clear message when a plain clone does not have it.
package sharedfix

import (
	"os"
	"path/filepath"
	"testing"
)

// Path returns the absolute path of rel inside the shared folder, or skips
// the test when the folder (or rel) is absent. AEPGATE_SHARED overrides the
// folder's location.
func Path(t testing.TB, rel string) string {
	t.Helper()
	root, ok := Root()
	if !ok {
		t.Skipf("shared folder not found (expected ../shared beside the repository root, or AEPGATE_SHARED); skipping a test that reads %s", rel)
	}
	p := filepath.Join(root, filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared fixture %s not present: %v", rel, err)
	}
	return p
}

// Root locates the shared folder: $AEPGATE_SHARED, else ../shared next to
// the directory holding go.mod, found by walking up from the working
// directory.
func Root() (string, bool) {
	if d := os.Getenv("AEPGATE_SHARED"); d != "" {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return d, true
		}
		return "", false
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			s := filepath.Join(filepath.Dir(dir), "shared")
			if fi, err := os.Stat(s); err == nil && fi.IsDir() {
				return s, true
			}
			return "", false
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}
