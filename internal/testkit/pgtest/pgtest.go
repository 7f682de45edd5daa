// Package pgtest starts a throwaway PostgreSQL server for tests from
// Debian's package binaries (/usr/lib/postgresql/*/bin), on a free port in a
// temporary directory, as the postgres user when the test runs as root (in
// a temporary folder that user can reach: TMPDIR, else /var/tmp or /tmp).
// A test skips with a clear message when PostgreSQL is not installed.
package pgtest

import (
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/skipline"
)

// Need is what the PostgreSQL tests need, for the skip line
// (internal/testkit/skipline) of a package whose TestMain is skipline.Main.
var Need = skipline.Need{What: "PostgreSQL", Install: "sudo apt-get install postgresql"}

// Start starts a server and returns its URL; the server is stopped and its
// files removed when the test ends.
func Start(t testing.TB) string {
	t.Helper()
	bin := binDir()
	if bin == "" {
		skipline.Skip(t, Need, "PostgreSQL not installed (no /usr/lib/postgresql/*/bin/initdb)")
	}
	base := ""
	if os.Geteuid() == 0 {
		var err error
		if base, err = reachableBase(append([]string{os.TempDir()}, fallbackBases...), os.Stat); err != nil {
			t.Fatal(err)
		}
	}
	dir, err := os.MkdirTemp(base, "aepgate-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	asUser, err := owner(dir)
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	run(t, asUser, filepath.Join(bin, "initdb"), "-D", data, "-U", "aepgate", "--auth=trust", "-E", "UTF8", "--no-sync")
	port := freePort(t)
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200", port, dir)
	run(t, asUser, filepath.Join(bin, "pg_ctl"), "-D", data, "-o", opts, "-l", filepath.Join(dir, "log"), "-w", "start")
	t.Cleanup(func() {
		cmd := command(asUser, filepath.Join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop")
		cmd.Run()
	})
	return fmt.Sprintf("postgres://aepgate@127.0.0.1:%d/postgres?sslmode=disable", port)
}

// fallbackBases are where the server's directory goes when TMPDIR is not
// reachable by the postgres user (a 0700 TMPDIR, or one under /root).
var fallbackBases = []string{"/var/tmp", "/tmp"}

// reachableBase is the first of candidates (TMPDIR first) that every user
// may traverse, so that the postgres user reaches the directory made in
// it; stat reads a folder's mode. When none is, the error says which
// folder stops the postgres user and how to fix it.
func reachableBase(candidates []string, stat func(string) (fs.FileInfo, error)) (string, error) {
	var blocked string
	for i, c := range candidates {
		b := blocker(c, stat)
		if b == "" {
			return c, nil
		}
		if i == 0 {
			blocked = b
		}
	}
	return "", fmt.Errorf("pgtest: TMPDIR %s is not traversable by the postgres user (%s lacks o+x), "+
		"nor are %s: run with TMPDIR=/var/tmp, or chmod o+x %s", candidates[0], blocked,
		strings.Join(candidates[1:], " or "), blocked)
}

// blocker is the first folder on the way to dir (dir included) that
// other users may not traverse, or "" when there is none.
func blocker(dir string, stat func(string) (fs.FileInfo, error)) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	var path []string
	for p := dir; ; p = filepath.Dir(p) {
		path = append([]string{p}, path...)
		if p == filepath.Dir(p) {
			break
		}
	}
	for _, p := range path {
		fi, err := stat(p)
		if err != nil || !fi.IsDir() || fi.Mode().Perm()&0o001 == 0 {
			return p
		}
	}
	return ""
}

func binDir() string {
	m, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(m) == 0 {
		return ""
	}
	sort.Strings(m)
	return filepath.Dir(m[len(m)-1])
}

// owner hands dir to the postgres user when running as root (PostgreSQL
// refuses to run as root) and returns the user to run as ("" = self).
func owner(dir string) (string, error) {
	if os.Geteuid() != 0 {
		return "", nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return "", fmt.Errorf("running as root and no postgres user to run PostgreSQL as: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chmod(dir, 0o755); err != nil {
		return "", err
	}
	return "postgres", os.Chown(dir, uid, gid)
}

func command(asUser, name string, args ...string) *exec.Cmd {
	if asUser == "" {
		return exec.Command(name, args...)
	}
	return exec.Command("runuser", append([]string{"-u", asUser, "--", name}, args...)...)
}

func run(t testing.TB, asUser, name string, args ...string) {
	t.Helper()
	out, err := command(asUser, name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", filepath.Base(name), err, out)
	}
}

func freePort(t testing.TB) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
