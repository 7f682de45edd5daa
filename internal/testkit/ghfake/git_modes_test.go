package ghfake_test

import (
	"crypto/sha1"
	"fmt"
	"maps"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-github/v62/github"
)

// evidence is an audit's evidence bundle: a regular file, an executable, a
// symbolic link to a file, one to a directory, and a file in that directory.
var evidence = map[string]string{
	"docs/run/log.md":          "# Log\n",
	"docs/run/verify.sh":       ghfake.Executable("#!/bin/sh\ngo test ./...\n"),
	"docs/run/latest.md":       ghfake.Symlink("log.md"),
	"docs/run/current":         ghfake.Symlink("../evidence/r1"),
	"docs/evidence/r1/out.txt": "ok\n",
}

// treeModes lists a commit's tree through the git trees API as path →
// "mode type".
func treeModes(t *testing.T, c *github.Client, ref string) map[string]string {
	t.Helper()
	cm, _, err := c.Repositories.GetCommit(ctx, "acme", "widgets", ref, nil)
	if err != nil {
		t.Fatalf("GetCommit %s: %v", ref, err)
	}
	tree, _, err := c.Git.GetTree(ctx, "acme", "widgets", cm.GetCommit().GetTree().GetSHA(), true)
	if err != nil {
		t.Fatalf("GetTree: %v", err)
	}
	out := map[string]string{}
	for _, e := range tree.Entries {
		out[e.GetPath()] = e.GetMode() + " " + e.GetType()
	}
	return out
}

func TestTreeModesMatchGit(t *testing.T) {
	_, repo, _, c := installed(t)
	sha := repo.Commit("main", "evidence", evidence)
	want := map[string]string{
		"README.md": "100644 blob", "docs": "040000 tree", "docs/evidence": "040000 tree",
		"docs/evidence/r1": "040000 tree", "docs/evidence/r1/out.txt": "100644 blob", "docs/run": "040000 tree",
		"docs/run/current": "120000 blob", "docs/run/latest.md": "120000 blob", "docs/run/log.md": "100644 blob",
		"docs/run/verify.sh": "100755 blob",
	}
	got := treeModes(t, c, sha)
	for p, m := range got {
		if m == "40000 tree" {
			got[p] = "040000 tree" // git ls-tree's spelling, for reading
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tree modes (-want +got):\n%s", diff)
	}
	files := maps.Clone(evidence)
	files["README.md"] = "# widgets\n"
	cm, _, _ := c.Git.GetCommit(ctx, "acme", "widgets", sha)
	if gitSHA := gitTreeSHA(t, files); gitSHA != "" && gitSHA != cm.GetTree().GetSHA() {
		t.Errorf("tree SHA = %s, git write-tree gives %s", cm.GetTree().GetSHA(), gitSHA)
	}
	if got, _ := repo.File("main", "docs/run/current"); got != "../evidence/r1" {
		t.Errorf("a symbolic link's blob = %q, want its target", got)
	}
}

func TestContentsSymlinks(t *testing.T) {
	_, repo, _, c := installed(t)
	repo.Commit("main", "evidence", evidence)
	linkSHA := map[string]string{"docs/run/latest.md": hashBlob("log.md"), "docs/run/current": hashBlob("../evidence/r1")}
	tests := []struct {
		path, typ, target, content, sha string
		size                            int
	}{
		{path: "docs/run/log.md", typ: "file", content: "# Log\n", sha: hashBlob("# Log\n"), size: 6},
		{path: "docs/run/verify.sh", typ: "file", content: "#!/bin/sh\ngo test ./...\n", sha: hashBlob("#!/bin/sh\ngo test ./...\n"), size: 24},
		// A link to a regular file answers the file's content under the link's name and sha.
		{path: "docs/run/latest.md", typ: "file", content: "# Log\n", sha: linkSHA["docs/run/latest.md"], size: 6},
		// A link to a directory answers itself.
		{path: "docs/run/current", typ: "symlink", target: "../evidence/r1", sha: linkSHA["docs/run/current"], size: 14},
	}
	for _, tc := range tests {
		fc, _, _, err := c.Repositories.GetContents(ctx, "acme", "widgets", tc.path, nil)
		if err != nil {
			t.Fatalf("GetContents %s: %v", tc.path, err)
		}
		body, _ := fc.GetContent()
		got := []any{fc.GetType(), fc.GetTarget(), body, fc.GetSHA(), fc.GetSize(), fc.GetPath()}
		want := []any{tc.typ, tc.target, tc.content, tc.sha, tc.size, tc.path}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.path, diff)
		}
	}
	if _, _, _, err := c.Repositories.GetContents(ctx, "acme", "widgets", "docs/run/current/out.txt", nil); status(err) != 404 {
		t.Errorf("a path through a link to a directory: err = %v, want 404", err)
	}
	_, dir, _, err := c.Repositories.GetContents(ctx, "acme", "widgets", "docs/run", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range dir {
		got[e.GetName()] = e.GetType()
	}
	want := map[string]string{"current": "symlink", "latest.md": "symlink", "log.md": "file", "verify.sh": "file"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("listing types (-want +got):\n%s", diff)
	}
}

// hashBlob is git's blob SHA of s (what `git hash-object` prints).
func hashBlob(s string) string {
	return fmt.Sprintf("%x", sha1.Sum([]byte(fmt.Sprintf("blob %d\x00%s", len(s), s))))
}

func TestCreateTreeModes(t *testing.T) {
	_, repo, _, c := installed(t)
	pc, _, _ := c.Git.GetCommit(ctx, "acme", "widgets", repo.Head("main"))
	entry := func(p, mode, content string) *github.TreeEntry {
		return &github.TreeEntry{Path: github.String(p), Mode: github.String(mode), Type: github.String("blob"), Content: github.String(content)}
	}
	tree, _, err := c.Git.CreateTree(ctx, "acme", "widgets", pc.GetTree().GetSHA(), []*github.TreeEntry{
		entry("bin/run.sh", "100755", "#!/bin/sh\n"), entry("run", "120000", "bin/run.sh"),
	})
	if err != nil {
		t.Fatalf("CreateTree: %v", err)
	}
	files := map[string]string{"README.md": "# widgets\n", "bin/run.sh": ghfake.Executable("#!/bin/sh\n"), "run": ghfake.Symlink("bin/run.sh")}
	if want := gitTreeSHA(t, files); want != "" && tree.GetSHA() != want {
		t.Errorf("tree SHA = %s, git write-tree gives %s", tree.GetSHA(), want)
	}
	for _, mode := range []string{"040000", "160000", "100600"} {
		_, _, err := c.Git.CreateTree(ctx, "acme", "widgets", pc.GetTree().GetSHA(), []*github.TreeEntry{entry("x", mode, "x")})
		if status(err) != 422 {
			t.Errorf("mode %s: err = %v, want 422", mode, err)
		}
	}
}
