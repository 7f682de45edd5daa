package gitobj

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseParents(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want []string
	}{
		{"root", "tree t\nauthor a\n\nmsg\n", nil},
		{"merge", "tree t\nparent p1\nparent p2\nauthor a\n\nmsg\n", []string{"p1", "p2"}},
		{"message lines are not header", "tree t\nparent p1\n\nparent fake\n", []string{"p1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ParseParents([]byte(tt.raw))); diff != "" {
				t.Errorf("ParseParents (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParentsInShallowClone: a depth-1 clone of a merge commit still
// reports both parents, which git log would hide.
func TestParentsInShallowClone(t *testing.T) {
	src := t.TempDir()
	git := func(dir string, args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-C", dir}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git(src, "init", "-q", "-b", "main")
	git(src, "commit", "-q", "--allow-empty", "-m", "a")
	git(src, "checkout", "-q", "-b", "topic")
	git(src, "commit", "-q", "--allow-empty", "-m", "topic")
	head := git(src, "rev-parse", "HEAD")
	git(src, "checkout", "-q", "main")
	git(src, "commit", "-q", "--allow-empty", "-m", "b")
	base := git(src, "rev-parse", "HEAD")
	git(src, "merge", "-q", "--no-ff", "topic", "-m", "merge")
	clone := filepath.Join(t.TempDir(), "clone")
	git(src, "clone", "-q", "--depth", "1", "file://"+src, clone)
	r, err := Open(context.Background(), clone)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Parents(context.Background(), "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{base, head}, got); diff != "" {
		t.Errorf("Parents (-want +got):\n%s", diff)
	}
}
