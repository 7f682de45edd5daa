package isolate

import (
	"context"
	"github.com/aepgate/aepgate/internal/treehash"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/protocol/config"
)

const guardTest = "grep -q guard=on guard.txt || { echo 'guard is off'; exit 1; }"

// controls covers every way a control can end: verified, failed, hung,
// killed, deleting the file, relying on uncommitted and untracked files.
var controls = []config.NegativeControl{
	{Name: "guard", File: "guard.txt", Break: "sed -i 's/guard=on/guard=off/' guard.txt", Test: guardTest},
	{Name: "always-passes", File: "guard.txt", Break: "sed -i 's/guard=on/guard=off/' guard.txt", Test: "true"},
	{Name: "hangs", File: "guard.txt", Break: "sed -i 's/guard=on/guard=off/' guard.txt",
		Test: "grep -q guard=on guard.txt || { (sleep 1; echo late > guard.txt) & sleep 30; }", Timeout: 300 * time.Millisecond},
	{Name: "killed", File: "guard.txt", Break: "rm guard.txt", Test: "grep -q guard=on guard.txt || kill -KILL $$"},
	{Name: "restore-only", Restore: "rm -f marker.txt", Test: "test ! -e marker.txt"},
	{Name: "uncommitted", File: "mode.txt", Break: "echo open > mode.txt",
		Test: "grep -q strict mode.txt && test -e untracked.txt && test ! -e deleted.txt && test ! -e ignored.log"},
}

var wantOK = map[string]bool{"guard": true, "killed": true, "uncommitted": true}

// writeFiles creates files (path → content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, body := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func run(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
}

// gitRepo makes a repository with a commit, then uncommitted, untracked,
// deleted and ignored changes on top.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"guard.txt": "guard=on\n", "mode.txt": "lax\n", "deleted.txt": "x\n",
		".gitignore": "*.log\n", "marker.txt": "m\n"})
	run(t, dir, "git", "init", "-q")
	run(t, dir, "git", "add", ".")
	run(t, dir, "git", "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "init")
	writeFiles(t, dir, map[string]string{"mode.txt": "strict\n", "untracked.txt": "u\n", "ignored.log": "i\n"})
	if err := os.Remove(filepath.Join(dir, "deleted.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "marker.txt")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// plainDir makes the same working tree without git.
func plainDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"guard.txt": "guard=on\n", "mode.txt": "strict\n", "untracked.txt": "u\n"})
	return dir
}

// treeHash is treehash.Sum (every path, mode and content, .git included
// except its shared object store).
func treeHash(t *testing.T, dir string) string { return treehash.Sum(t, dir) }

func TestRunAllLeavesTreeUntouched(t *testing.T) {
	for _, tc := range []struct {
		name string
		dir  func(*testing.T) string
		ctls []config.NegativeControl
	}{
		{"git", gitRepo, controls},
		{"plain", plainDir, controls[:4]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := tc.dir(t)
			before := treeHash(t, dir)
			tmp := t.TempDir()
			results, err := RunAll(context.Background(), dir, tc.ctls, Options{Jobs: 3, TempDir: tmp})
			if err != nil {
				t.Fatal(err)
			}
			time.Sleep(1300 * time.Millisecond) // outlive the hanging control's late writer
			if after := treeHash(t, dir); after != before {
				t.Fatalf("RunAll changed the original tree")
			}
			for i, r := range results {
				if r.Name != tc.ctls[i].Name {
					t.Errorf("result %d is %q, want %q", i, r.Name, tc.ctls[i].Name)
				}
				if r.OK != wantOK[r.Name] {
					t.Errorf("%s: OK = %v, want %v\n%s", r.Name, r.OK, wantOK[r.Name], r.Transcript)
				}
			}
			assertCleaned(t, dir, tmp)
		})
	}
}

// assertCleaned checks that no copy and no worktree record is left.
func assertCleaned(t *testing.T, dir, tmp string) {
	t.Helper()
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left in the temporary directory: %v", left)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		out, err := exec.Command("git", "-C", dir, "worktree", "list", "--porcelain").Output()
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(out), "worktree "); n != 1 {
			t.Errorf("%d worktrees left:\n%s", n, out)
		}
	}
}

// TestIsolationCanFail is the negative control of isolation: run in place,
// a control that leaves litter behind changes the original tree.
func TestIsolationCanFail(t *testing.T) {
	litter := []config.NegativeControl{{Name: "litter", File: "guard.txt",
		Break: "sed -i 's/guard=on/guard=off/' guard.txt; echo x > litter.txt", Test: guardTest}}
	inPlaceCopy := func(_ context.Context, src *source, tmp, name string) (*workCopy, error) {
		backups := filepath.Join(tmp, name)
		return &workCopy{src: src, base: backups, top: src.root, dir: src.root, backups: backups}, os.MkdirAll(backups, 0o700)
	}
	for _, inPlace := range []bool{false, true} {
		t.Run(map[bool]string{false: "isolated", true: "in place"}[inPlace], func(t *testing.T) {
			sb := isolated()
			if inPlace {
				sb.copy = inPlaceCopy
			}
			dir := gitRepo(t)
			before := treeHash(t, dir)
			results, err := runAll(context.Background(), dir, litter, Options{TempDir: t.TempDir()}, sb)
			if err != nil || !results[0].OK {
				t.Fatalf("err %v, result:\n%s", err, results[0].Transcript)
			}
			if changed := treeHash(t, dir) != before; changed != inPlace {
				t.Fatalf("in place=%v: original tree changed=%v", inPlace, changed)
			}
		})
	}
}

func TestRunAllInterrupted(t *testing.T) {
	dir := gitRepo(t)
	before := treeHash(t, dir)
	tmp := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(500*time.Millisecond, cancel)
	hang := config.NegativeControl{Name: "hang", File: "guard.txt", Break: "sed -i 's/guard=on/guard=off/' guard.txt",
		Test: "grep -q guard=on guard.txt || sleep 30"}
	hang2 := hang
	hang2.Name = "hang2"
	results, err := RunAll(ctx, dir, []config.NegativeControl{hang, hang2, controls[0]}, Options{Jobs: 2, TempDir: tmp})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if r.OK || !r.Interrupted {
			t.Errorf("%s: ok=%v interrupted=%v\n%s", r.Name, r.OK, r.Interrupted, r.Transcript)
		}
	}
	if treeHash(t, dir) != before {
		t.Fatal("an interrupted RunAll changed the original tree")
	}
	assertCleaned(t, dir, tmp)
}

func TestRunAllSubdirectory(t *testing.T) {
	dir := gitRepo(t)
	writeFiles(t, dir, map[string]string{"sub/guard.txt": "guard=on\n"})
	results, err := RunAll(context.Background(), filepath.Join(dir, "sub"), controls[:1], Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if !results[0].OK {
		t.Fatalf("control in a subdirectory failed:\n%s", results[0].Transcript)
	}
}

// TestRunAllFromGitHook: variables git sets for hooks must not point the
// controls' git commands at the original repository; with the bindings
// left in (the protection removed), the original index is rewritten.
func TestRunAllFromGitHook(t *testing.T) {
	for _, weakened := range []bool{false, true} {
		t.Run(map[bool]string{false: "bindings removed", true: "bindings kept"}[weakened], func(t *testing.T) {
			sb := isolated()
			if weakened {
				sb.env = func([]string) []string { return os.Environ() }
			}
			dir := gitRepo(t)
			before := treeHash(t, dir)
			t.Setenv("GIT_DIR", filepath.Join(dir, ".git"))
			t.Setenv("GIT_INDEX_FILE", filepath.Join(dir, ".git", "index"))
			t.Setenv("GIT_WORK_TREE", dir)
			ctl := config.NegativeControl{Name: "git-restore", Break: "sed -i 's/guard=on/guard=off/' guard.txt",
				Restore: "git checkout -- guard.txt; git add -A", Test: guardTest}
			results, err := runAll(context.Background(), dir, []config.NegativeControl{ctl}, Options{TempDir: t.TempDir()}, sb)
			if err != nil {
				t.Fatal(err)
			}
			if changed := treeHash(t, dir) != before; changed != weakened {
				t.Fatalf("weakened=%v: original repository changed=%v\n%s", weakened, changed, results[0].Transcript)
			}
		})
	}
}

func TestRunAllBadRoot(t *testing.T) {
	if _, err := RunAll(context.Background(), filepath.Join(t.TempDir(), "nope"), controls, Options{}); err == nil {
		t.Fatal("a missing root was accepted")
	}
}

// BenchmarkRunAll compares parallel with sequential runs of 4 controls
// whose test sleeps 1 s (so each control takes about 2 s), in a plain
// directory and in a git repository (worktree copies).
func BenchmarkRunAll(b *testing.B) {
	plain := b.TempDir()
	if err := os.WriteFile(filepath.Join(plain, "guard.txt"), []byte("guard=on\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	repo := b.TempDir()
	for _, args := range [][]string{{"cp", filepath.Join(plain, "guard.txt"), "."}, {"git", "init", "-q"}, {"git", "add", "."},
		{"git", "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "init"}} {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	ctl := config.NegativeControl{File: "guard.txt", Break: "sed -i 's/guard=on/guard=off/' guard.txt",
		Test: "sleep 1; grep -q guard=on guard.txt"}
	var ctls []config.NegativeControl
	for _, n := range []string{"a", "b", "c", "d"} {
		c := ctl
		c.Name = n
		ctls = append(ctls, c)
	}
	for _, tree := range []struct{ name, dir string }{{"plain", plain}, {"git", repo}} {
		for _, jobs := range []int{1, 0} {
			name := tree.name + "/jobs=default"
			if jobs == 1 {
				name = tree.name + "/jobs=1"
			}
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					results, err := RunAll(context.Background(), tree.dir, ctls, Options{Jobs: jobs, TempDir: b.TempDir()})
					if err != nil {
						b.Fatal(err)
					}
					for _, r := range results {
						if !r.OK {
							b.Fatalf("%s failed:\n%s", r.Name, r.Transcript)
						}
					}
				}
			})
		}
	}
}
