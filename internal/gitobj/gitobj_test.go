package gitobj

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// gitRepo makes a repository in a temporary directory with one commit of
// files (a value starting with "->" is a symbolic link to the rest) and
// returns its directory.
func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	commit(t, dir, files)
	return dir
}

// commit writes files into dir's working tree and commits them all.
func commit(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, body := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		os.Remove(full)
		var err error
		if target, ok := cutLink(body); ok {
			err = os.Symlink(target, full)
		} else {
			err = os.WriteFile(full, []byte(body), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	git(t, dir, "add", "-A")
	git(t, dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "commit", "-qm", "c")
}

func cutLink(body string) (string, bool) {
	if len(body) > 2 && body[:2] == "->" {
		return body[2:], true
	}
	return "", false
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func TestFiles(t *testing.T) {
	dir := gitRepo(t, map[string]string{
		"a/b.go": "package a\n", "link.go": "->a/b.go", "sub/linkdir": "->../a", "empty.txt": "",
	})
	ctx := context.Background()
	r, err := Open(ctx, filepath.Join(dir, "a")) // a subdirectory: paths stay top-level
	if err != nil {
		t.Fatal(err)
	}
	head, err := r.Resolve(ctx, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	// The working tree changes after the commit; Files reads the commit.
	os.WriteFile(filepath.Join(dir, "a/b.go"), []byte("changed\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "new.go"), []byte("untracked\n"), 0o644)
	got, err := r.Files(ctx, head, []string{"a/b.go", "link.go", "a", "sub/linkdir/b.go", "new.go", "empty.txt", "a/b.go"})
	if err != nil {
		t.Fatal(err)
	}
	want := []File{
		{Path: "a/b.go", Content: []byte("package a\n")},
		{Path: "link.go", Content: []byte("a/b.go"), Symlink: true},
		{Path: "a", Missing: true},
		{Path: "sub/linkdir/b.go", Missing: true},
		{Path: "new.go", Missing: true},
		{Path: "empty.txt", Content: []byte{}},
		{Path: "a/b.go", Content: []byte("package a\n")},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Files (-want +got):\n%s", diff)
	}
}

func TestFilesLiteralPaths(t *testing.T) {
	dir := gitRepo(t, map[string]string{"x1.go": "one\n", "x2.go": "two\n", ":(glob)x*.go": "magic\n"})
	ctx := context.Background()
	r, _ := Open(ctx, dir)
	got, err := r.Files(ctx, "HEAD", []string{"x*.go", ":(glob)x*.go"})
	if err != nil {
		t.Fatal(err)
	}
	want := []File{{Path: "x*.go", Missing: true}, {Path: ":(glob)x*.go", Content: []byte("magic\n")}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("a path is a pattern (-want +got):\n%s", diff)
	}
}

func TestResolve(t *testing.T) {
	dir := gitRepo(t, map[string]string{"f": "1\n"})
	first := git(t, dir, "rev-parse", "HEAD")[:40]
	commit(t, dir, map[string]string{"f": "2\n"})
	ctx := context.Background()
	r, _ := Open(ctx, dir)
	tests := []struct {
		rev, want string
		err       error
	}{
		{"HEAD~1", first, nil},
		{first[:10], first, nil},
		{"no-such-branch", "", ErrUnknownCommit},
		{"--all", "", ErrUnknownCommit},
		{"HEAD:f", "", ErrUnknownCommit}, // a blob, not a commit
		{"", "", ErrUnknownCommit},
	}
	for _, tt := range tests {
		got, err := r.Resolve(ctx, tt.rev)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("Resolve(%q) = %q, %v; want %q, %v", tt.rev, got, err, tt.want, tt.err)
		}
	}
}

func TestOpenNotRepository(t *testing.T) {
	for _, dir := range []string{t.TempDir(), filepath.Join(t.TempDir(), "none")} {
		if _, err := Open(context.Background(), dir); !errors.Is(err, ErrNotRepository) {
			t.Errorf("Open(%s) = %v, want ErrNotRepository", dir, err)
		}
	}
}
