// Package skipline makes the tests that skip for want of a service visible
// without -v. go test prints only "ok" for a package that passes, however
// many of its tests skipped, so a test that needs PostgreSQL or Chromium
// skips through Skip, and the package's TestMain (Main) prints one line
// when it ends: how many tests skipped, why, and the command that runs
// them. The line goes to the standard error of the go command that started
// the test binary (on Linux, /proc/<parent>/fd/2), which go test does not
// buffer, when that is a terminal or a pipe (go test ./... | tail, a CI
// log); elsewhere, or when it is a regular file, to the binary's own
// standard output (shown with -v). A result go test takes from its cache
// prints "(cached)" without the line; -count=1 runs the tests again.
package skipline

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// Need is a service some tests need.
type Need struct {
	// What names it, e.g. "PostgreSQL".
	What string
	// Install is the command that installs it, e.g. "sudo apt-get install
	// postgresql".
	Install string
}

var (
	mu      sync.Mutex
	skipped = map[Need][]string{} // need → why, one per skipped test
)

// Skip records that t skips for want of need, then skips it.
func Skip(t testing.TB, need Need, why string) {
	t.Helper()
	mu.Lock()
	skipped[need] = append(skipped[need], why)
	mu.Unlock()
	t.Skip(why)
}

// Main runs the package's tests with Run and exits with their code. Call
// it as a package's TestMain.
func Main(m *testing.M) { os.Exit(Run(m)) }

// Run runs the package's tests, prints Summary's lines and returns the
// tests' exit code, for a TestMain with more to do.
func Run(m *testing.M) int {
	code := m.Run()
	if lines := Summary(packageDir()); len(lines) > 0 {
		w, closeW := out()
		for _, l := range lines {
			fmt.Fprintln(w, l)
		}
		closeW()
	}
	return code
}

// Summary returns one line per need that made tests of the package in dir
// ("./internal/store") skip, sorted.
func Summary(dir string) []string {
	mu.Lock()
	defer mu.Unlock()
	var lines []string
	for need, whys := range skipped {
		lines = append(lines, fmt.Sprintf("%s: %d %s skipped: %s; run them with: %s && go test %s",
			dir, len(whys), plural(len(whys)), whys[0], need.Install, dir))
	}
	sort.Strings(lines)
	return lines
}

func plural(n int) string {
	if n == 1 {
		return "test"
	}
	return "tests"
}

// out is the go command's standard error when it is a terminal or a pipe
// that can be opened, else the binary's standard output. A regular file is
// left alone: the go command writes it at its own offset and would
// overwrite the line.
func out() (io.Writer, func()) {
	f, err := os.OpenFile(fmt.Sprintf("/proc/%d/fd/2", os.Getppid()), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return os.Stdout, func() {}
	}
	if fi, err := f.Stat(); err != nil || fi.Mode().IsRegular() {
		f.Close()
		return os.Stdout, func() {}
	}
	return f, func() { f.Close() }
}

// packageDir is the test's working directory (its package's folder)
// relative to the module root, as "./a/b".
func packageDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			rel, err := filepath.Rel(dir, wd)
			if err != nil || rel == "." {
				return "."
			}
			return "./" + strings.ReplaceAll(rel, string(filepath.Separator), "/")
		}
		if filepath.Dir(dir) == dir {
			return "."
		}
	}
}
