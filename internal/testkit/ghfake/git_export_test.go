package ghfake

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteGit: git reads the written repository with the fake's SHAs:
// the merge commit's tree and parents, and a file's content.
func TestWriteGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: WriteGit's objects cannot be read back")
	}
	f := New(t)
	r := f.CreateRepo("acme/widgets")
	r.Branch("work", "main")
	r.Commit("work", "work", map[string]string{"dir/a.txt": "a\n"})
	r.Commit("main", "moves", map[string]string{"b.txt": "b\n"})
	pr := r.OpenPR("bob", "work", "main", "Work", "")
	merge := pr.Merge(MergeCommit)
	dir := filepath.Join(t.TempDir(), "widgets.git")
	for range 2 {
		if err := r.WriteGit(dir); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) string {
		out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if got := git("rev-parse", merge+"^2"); got != pr.Head() {
		t.Errorf("second parent %s, want %s", got, pr.Head())
	}
	if got := git("show", merge+":dir/a.txt"); got != "a" {
		t.Errorf("dir/a.txt = %q", got)
	}
	git("fsck", "--no-dangling")
}
