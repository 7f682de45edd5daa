package isolate

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
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
						if runtime.GOOS == "windows" {
							t.Skipf("symlinks unavailable: %v", err)
						}
						t.Fatal(err) // every unix has symlinks: never skip this check
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

// TestCopyDoesNotWriteThroughACommittedLink: HEAD holds a symlink "d" to a
// folder outside the tree, the working tree a real folder "d" with an
// untracked file. Making the copy must not write that file through the
// worktree's link; with plain mirroring (the protection removed) the
// outside file is replaced.
func TestCopyDoesNotWriteThroughACommittedLink(t *testing.T) {
	for _, tc := range []struct {
		name        string
		place       placer
		wantChanged bool
	}{
		{"placeInside", placeInside, false},
		{"plain mirror", func(src, top, rel string) error { return mirror(src, filepath.Join(top, rel)) }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			outside := t.TempDir()
			writeFiles(t, outside, map[string]string{"x.txt": "precious\n"})
			dir := gitRepo(t)
			if err := os.Symlink(outside, filepath.Join(dir, "d")); err != nil {
				if runtime.GOOS == "windows" {
					t.Skipf("symlinks unavailable: %v", err)
				}
				t.Fatal(err) // every unix has symlinks: never skip this check
			}
			run(t, dir, "git", "add", "d")
			run(t, dir, "git", "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "link")
			os.Remove(filepath.Join(dir, "d"))
			writeFiles(t, dir, map[string]string{"d/x.txt": "from the tree\n"})
			sb := isolated()
			sb.copy = func(ctx context.Context, src *source, tmp, name string) (*workCopy, error) {
				return src.copyWith(ctx, tmp, name, tc.place)
			}
			ctl := config.NegativeControl{Name: "d", File: "d/x.txt", Break: "echo off > d/x.txt",
				Test: "grep -q 'from the tree' d/x.txt"}
			results, err := runAll(context.Background(), dir, []config.NegativeControl{ctl}, Options{TempDir: t.TempDir()}, sb)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(filepath.Join(outside, "x.txt"))
			if changed := string(b) != "precious\n"; changed != tc.wantChanged {
				t.Fatalf("outside file changed = %v (%q), want %v\n%s", changed, b, tc.wantChanged, results[0].Transcript)
			}
			if !tc.wantChanged && !results[0].OK {
				t.Errorf("the control should run in a real folder d/:\n%s %v", results[0].Transcript, results[0].Err)
			}
		})
	}
}
