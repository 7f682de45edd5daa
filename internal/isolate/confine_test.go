package isolate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/config"
)

// TestRunAllDeclaredFileLinkedOutside: a declared file that is a committed
// symlink to an absolute path in the original tree is refused in the copy,
// and the original is byte for byte unchanged, not even broken for the
// length of the run. With the confinement removed from the sandbox, the
// break goes through the link into the original.
func TestRunAllDeclaredFileLinkedOutside(t *testing.T) {
	for _, tc := range []struct {
		name       string
		confined   bool
		wantBroken bool
	}{{"confined", true, false}, {"not confined", false, true}} {
		t.Run(tc.name, func(t *testing.T) {
			for _, mk := range []struct {
				name string
				dir  func(*testing.T) string
			}{{"git", gitRepo}, {"plain", plainDir}} {
				t.Run(mk.name, func(t *testing.T) {
					dir := mk.dir(t)
					real := filepath.Join(dir, "guard.txt")
					if err := os.Symlink(real, filepath.Join(dir, "link.txt")); err != nil {
						t.Skipf("symlinks unavailable: %v", err)
					}
					if mk.name == "git" {
						run(t, dir, "git", "add", "link.txt")
						run(t, dir, "git", "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "link")
					}
					witness := filepath.Join(t.TempDir(), "seen")
					ctl := config.NegativeControl{Name: "through-link", File: "link.txt", Break: "echo guard=off > link.txt",
						Test: "cat '" + real + "' >> '" + witness + "'; grep -q guard=on link.txt"}
					sb := isolated()
					if !tc.confined {
						sb.confine = func(*workCopy) string { return "" }
					}
					before := treeHash(t, dir)
					results, err := runAll(context.Background(), dir, []config.NegativeControl{ctl}, Options{TempDir: t.TempDir()}, sb)
					if err != nil {
						t.Fatal(err)
					}
					seen, _ := os.ReadFile(witness)
					if broken := strings.Contains(string(seen), "guard=off"); broken != tc.wantBroken {
						t.Fatalf("original broken during the run = %v, want %v\n%s", broken, tc.wantBroken, results[0].Transcript)
					}
					if tc.confined {
						if after := treeHash(t, dir); after != before {
							t.Fatal("the original tree changed")
						}
						if r := results[0]; r.ExitCode() != 2 || !strings.Contains(r.Err.Error(), "leads outside") {
							t.Errorf("exit %d, err %v; want 2 and a refusal", r.ExitCode(), r.Err)
						}
					}
				})
			}
		})
	}
}
