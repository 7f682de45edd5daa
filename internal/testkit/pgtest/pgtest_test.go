package pgtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/skipline"
)

func TestMain(m *testing.M) { skipline.Main(m) }

// TestReachableBase: TMPDIR is used when every folder on its way lets
// other users through; a 0700 TMPDIR (or one under a 0700 folder) gives
// way to the first fallback that does; when none does, the error names
// the folder that stops the postgres user and says how to fix it.
func TestReachableBase(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{filepath.Dir(root), root} { // t.TempDir's folders are 0700
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	open := mkdir(t, root, "open", 0o755)
	closed := mkdir(t, root, "closed", 0o700)
	under := mkdir(t, closed, "under", 0o777)
	for _, tt := range []struct {
		name       string
		candidates []string
		want       string
		wantErr    []string
	}{
		{"TMPDIR reachable", []string{open, closed}, open, nil},
		{"0700 TMPDIR", []string{closed, open}, open, nil},
		{"TMPDIR under a 0700 folder", []string{under, open}, open, nil},
		{"none reachable", []string{under, closed}, "",
			[]string{"TMPDIR " + under + " is not traversable by the postgres user", "chmod o+x " + closed, "TMPDIR=/var/tmp"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := reachableBase(tt.candidates, os.Stat)
			if got != tt.want {
				t.Errorf("base %q, want %q", got, tt.want)
			}
			if (err != nil) != (tt.wantErr != nil) {
				t.Fatalf("error %v, want one: %v", err, tt.wantErr != nil)
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// TestStartUnderClosedTMPDIR: run as root with a 0700 TMPDIR, the server
// still starts (initdb runs as the postgres user, who cannot reach
// TMPDIR: the directory goes in a fallback). Its negative control offers
// TMPDIR only: initdb would fail with "Permission denied", and Start's
// choice says so first.
func TestStartUnderClosedTMPDIR(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the postgres user is only used when the tests run as root")
	}
	closed := mkdir(t, t.TempDir(), "closed", 0o700)
	if _, err := reachableBase([]string{closed}, os.Stat); err == nil {
		t.Fatal("negative control: a 0700 TMPDIR alone was chosen for the postgres user")
	}
	t.Setenv("TMPDIR", closed)
	if url := Start(t); !strings.HasPrefix(url, "postgres://") {
		t.Errorf("URL %q", url)
	}
}

func mkdir(t *testing.T, parent, name string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(parent, name)
	if err := os.Mkdir(p, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil { // past the umask
		t.Fatal(err)
	}
	return p
}
