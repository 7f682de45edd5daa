package ghfake_test

import (
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-github/v62/github"
)

func TestGitObjectsRoundTrip(t *testing.T) {
	f, repo, _, c := installed(t)
	sha := repo.Commit("main", "add config", map[string]string{
		".github/aepgate.yml": "owners: [alice]\n",
		"docs/run/plan.md":    "# Plan\n",
	})
	ref, _, err := c.Git.GetRef(ctx, "acme", "widgets", "heads/main")
	if err != nil {
		t.Fatalf("GetRef: %v", err)
	}
	if got := ref.GetObject().GetSHA(); got != sha {
		t.Errorf("heads/main = %s, want %s", got, sha)
	}
	commit, _, err := c.Git.GetCommit(ctx, "acme", "widgets", sha)
	if err != nil {
		t.Fatalf("Git.GetCommit: %v", err)
	}
	if got, want := commit.GetMessage(), "add config"; got != want {
		t.Errorf("message = %q, want %q", got, want)
	}
	if len(commit.Parents) != 1 {
		t.Errorf("parents = %d, want 1", len(commit.Parents))
	}
	tree, _, err := c.Git.GetTree(ctx, "acme", "widgets", commit.GetTree().GetSHA(), true)
	if err != nil {
		t.Fatalf("GetTree: %v", err)
	}
	var paths []string
	for _, e := range tree.Entries {
		paths = append(paths, e.GetType()+" "+e.GetPath())
	}
	want := []string{"tree .github", "blob .github/aepgate.yml", "blob README.md", "tree docs", "tree docs/run", "blob docs/run/plan.md"}
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Errorf("recursive tree (-want +got):\n%s", diff)
	}
	if got, want := gitTreeSHA(t, map[string]string{".github/aepgate.yml": "owners: [alice]\n", "docs/run/plan.md": "# Plan\n", "README.md": "# widgets\n"}), commit.GetTree().GetSHA(); want != "" && got != want {
		t.Errorf("tree SHA = %s, git computes %s", want, got)
	}
	rc, _, err := c.Repositories.GetCommit(ctx, "acme", "widgets", "main", nil)
	if err != nil {
		t.Fatalf("Repositories.GetCommit: %v", err)
	}
	if len(rc.Files) != 2 || rc.GetStats().GetAdditions() != 2 {
		t.Errorf("commit files = %d, additions = %d; want 2, 2", len(rc.Files), rc.GetStats().GetAdditions())
	}
	_ = f
}

// gitTreeSHA asks real git for the tree of files ("" when git is absent).
func gitTreeSHA(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		return ""
	}
	dir := t.TempDir()
	run := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("init", "-q")
	run("config", "core.fileMode", "true")
	run("config", "core.symlinks", "true")
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := writeWorkFile(full, content); err != nil {
			t.Fatal(err)
		}
	}
	run("add", "-A")
	return run("write-tree")
}

// writeWorkFile writes a Commit content to disk as git would check it out:
// ghfake.Symlink as a symbolic link, ghfake.Executable with mode 0755.
func writeWorkFile(full, content string) error {
	if target, ok := strings.CutPrefix(content, ghfake.Symlink("")); ok {
		return os.Symlink(target, full)
	}
	if body, ok := strings.CutPrefix(content, ghfake.Executable("")); ok {
		if err := os.WriteFile(full, []byte(body), 0o755); err != nil {
			return err
		}
		return os.Chmod(full, 0o755) // past the umask
	}
	return os.WriteFile(full, []byte(content), 0o644)
}

func TestContentsBase64WrappedAt60(t *testing.T) {
	_, repo, _, c := installed(t)
	body := strings.Repeat("0123456789", 20) + "\n"
	repo.Commit("feature", "long file", map[string]string{"long.txt": body})
	fc, _, _, err := c.Repositories.GetContents(ctx, "acme", "widgets", "long.txt", &github.RepositoryContentGetOptions{Ref: "feature"})
	if err != nil {
		t.Fatalf("GetContents: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(*fc.Content, "\n"), "\n")
	for i, l := range lines[:len(lines)-1] {
		if len(l) != 60 {
			t.Errorf("line %d has %d columns, want 60", i, len(l))
		}
	}
	got, err := fc.GetContent()
	if err != nil || got != body {
		t.Errorf("decoded content = %q, %v; want %q", got, err, body)
	}
	raw, _ := base64.StdEncoding.DecodeString(strings.ReplaceAll(*fc.Content, "\n", ""))
	if string(raw) != body {
		t.Errorf("raw base64 does not decode to the file")
	}
	if _, _, _, err := c.Repositories.GetContents(ctx, "acme", "widgets", "long.txt", nil); status(err) != 404 {
		t.Errorf("file absent on the default branch: err = %v, want 404", err)
	}
	_, dir, _, err := c.Repositories.GetContents(ctx, "acme", "widgets", "", &github.RepositoryContentGetOptions{Ref: "feature"})
	if err != nil || len(dir) != 2 {
		t.Errorf("root listing = %d entries, %v; want 2", len(dir), err)
	}
}

func TestAnnotatedTagPeel(t *testing.T) {
	_, repo, _, c := installed(t)
	head := repo.Head("main")
	tagSHA := repo.Tag("v1.0.0", "main", "release 1.0.0\n")
	repo.LightweightTag("light", "main")
	ref, _, err := c.Git.GetRef(ctx, "acme", "widgets", "tags/v1.0.0")
	if err != nil {
		t.Fatalf("GetRef: %v", err)
	}
	if ref.GetObject().GetType() != "tag" || ref.GetObject().GetSHA() != tagSHA {
		t.Fatalf("tag ref object = %s %s, want tag %s", ref.GetObject().GetType(), ref.GetObject().GetSHA(), tagSHA)
	}
	tag, _, err := c.Git.GetTag(ctx, "acme", "widgets", tagSHA)
	if err != nil {
		t.Fatalf("GetTag: %v", err)
	}
	if tag.GetObject().GetType() != "commit" || tag.GetObject().GetSHA() != head {
		t.Errorf("tag object = %s %s, want commit %s", tag.GetObject().GetType(), tag.GetObject().GetSHA(), head)
	}
	light, _, err := c.Git.GetRef(ctx, "acme", "widgets", "tags/light")
	if err != nil || light.GetObject().GetType() != "commit" {
		t.Errorf("lightweight tag object type = %q, %v; want commit", light.GetObject().GetType(), err)
	}
}

func TestCompareAndRefs(t *testing.T) {
	_, repo, _, c := installed(t)
	base := repo.Head("main")
	repo.Branch("feature", "main")
	repo.Commit("feature", "one", map[string]string{"a.txt": "a\n"})
	head := repo.Commit("feature", "two", map[string]string{"b.txt": "b\n", "README.md": ghfake.Deleted})
	cmpRes, _, err := c.Repositories.CompareCommits(ctx, "acme", "widgets", "main", "feature", nil)
	if err != nil {
		t.Fatalf("CompareCommits: %v", err)
	}
	if cmpRes.GetStatus() != "ahead" || cmpRes.GetAheadBy() != 2 || cmpRes.GetMergeBaseCommit().GetSHA() != base {
		t.Errorf("compare = %s ahead %d base %s", cmpRes.GetStatus(), cmpRes.GetAheadBy(), cmpRes.GetMergeBaseCommit().GetSHA())
	}
	var files []string
	for _, fl := range cmpRes.Files {
		files = append(files, fl.GetStatus()+" "+fl.GetFilename())
	}
	if diff := cmp.Diff([]string{"removed README.md", "added a.txt", "added b.txt"}, files); diff != "" {
		t.Errorf("compare files (-want +got):\n%s", diff)
	}
	repo.Commit("main", "main moves", map[string]string{"c.txt": "c\n"})
	cmpRes, _, _ = c.Repositories.CompareCommits(ctx, "acme", "widgets", "main", "feature", nil)
	if cmpRes.GetStatus() != "diverged" || cmpRes.GetBehindBy() != 1 {
		t.Errorf("after main moved: %s behind %d, want diverged behind 1", cmpRes.GetStatus(), cmpRes.GetBehindBy())
	}
	_, _, err = c.Git.UpdateRef(ctx, "acme", "widgets", &github.Reference{Ref: github.String("heads/feature"), Object: &github.GitObject{SHA: github.String(base)}}, false)
	if status(err) != 422 {
		t.Errorf("non-fast-forward update: err = %v, want 422", err)
	}
	if _, _, err := c.Git.UpdateRef(ctx, "acme", "widgets", &github.Reference{Ref: github.String("heads/feature"), Object: &github.GitObject{SHA: github.String(base)}}, true); err != nil {
		t.Errorf("forced update: %v", err)
	}
	if _, _, err := c.Git.CreateRef(ctx, "acme", "widgets", &github.Reference{Ref: github.String("refs/heads/keep"), Object: &github.GitObject{SHA: github.String(head)}}); err != nil {
		t.Errorf("CreateRef: %v", err)
	}
	if got := repo.Head("keep"); got != head {
		t.Errorf("keep = %s, want %s", got, head)
	}
}

func TestGitDataWrites(t *testing.T) {
	_, repo, _, c := installed(t)
	parent := repo.Head("main")
	blob, _, err := c.Git.CreateBlob(ctx, "acme", "widgets", &github.Blob{Content: github.String("hello\n"), Encoding: github.String("utf-8")})
	if err != nil {
		t.Fatalf("CreateBlob: %v", err)
	}
	if got, want := blob.GetSHA(), "ce013625030ba8dba906f756967f9e9ca394464a"; got != want {
		t.Errorf("blob SHA = %s, want git's %s", got, want)
	}
	pc, _, _ := c.Git.GetCommit(ctx, "acme", "widgets", parent)
	tree, _, err := c.Git.CreateTree(ctx, "acme", "widgets", pc.GetTree().GetSHA(), []*github.TreeEntry{
		{Path: github.String("hello.txt"), Mode: github.String("100644"), Type: github.String("blob"), SHA: blob.SHA},
	})
	if err != nil {
		t.Fatalf("CreateTree: %v", err)
	}
	commit, _, err := c.Git.CreateCommit(ctx, "acme", "widgets", &github.Commit{
		Message: github.String("via git data"), Tree: tree, Parents: []*github.Commit{{SHA: github.String(parent)}},
	}, nil)
	if err != nil {
		t.Fatalf("CreateCommit: %v", err)
	}
	if _, _, err := c.Git.UpdateRef(ctx, "acme", "widgets", &github.Reference{Ref: github.String("heads/main"), Object: &github.GitObject{SHA: commit.SHA}}, false); err != nil {
		t.Fatalf("UpdateRef: %v", err)
	}
	fc, _, _, err := c.Repositories.GetContents(ctx, "acme", "widgets", "hello.txt", nil)
	if err != nil {
		t.Fatalf("GetContents: %v", err)
	}
	if got, _ := fc.GetContent(); got != "hello\n" {
		t.Errorf("content = %q", got)
	}
}

// TestFixedClockRepeatsSHAs shows that with SetNow first, the same story
// gives the same SHAs in every run (so golden files can hold them).
func TestFixedClockRepeatsSHAs(t *testing.T) {
	run := func() string {
		f := ghfake.New(t)
		f.SetNow(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
		repo := f.CreateRepo("acme/widgets")
		repo.Branch("x", "main")
		repo.CommitBy("alice", "x", "work", map[string]string{"a.go": "package a\n"})
		return repo.OpenPR("alice", "x", "main", "t", "").Merge(ghfake.MergeCommit)
	}
	if a, b := run(), run(); a != b {
		t.Errorf("merge SHAs differ between runs: %s, %s", a, b)
	}
}

func TestDefaultBranchAndFile(t *testing.T) {
	_, repo, _, c := installed(t)
	repo.Commit("trunk", "config on trunk", map[string]string{".github/aepgate.yml": "owners: [acme]\n"})
	repo.SetDefaultBranch("trunk")
	got, _, err := c.Repositories.Get(ctx, "acme", "widgets")
	if err != nil || got.GetDefaultBranch() != "trunk" {
		t.Fatalf("default branch = %q, %v", got.GetDefaultBranch(), err)
	}
	fc, _, _, err := c.Repositories.GetContents(ctx, "acme", "widgets", ".github/aepgate.yml", nil)
	if err != nil {
		t.Fatalf("config on the default branch: %v", err)
	}
	if body, _ := fc.GetContent(); body != "owners: [acme]\n" {
		t.Errorf("content = %q", body)
	}
	if s, ok := repo.File("trunk", ".github/aepgate.yml"); !ok || s != "owners: [acme]\n" {
		t.Errorf("File = %q, %v", s, ok)
	}
	if _, ok := repo.File("main", ".github/aepgate.yml"); ok {
		t.Errorf("File found the config on main")
	}
}
