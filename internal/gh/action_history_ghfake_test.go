package gh_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/plans"
)

// actionClient opens repo in a new fake with a workflow token holding
// perms.
func actionClient(t *testing.T, perms ghfake.Permissions) (*ghfake.Repo, *gh.ActionClient) {
	t.Helper()
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	repo.Commit("main", "init", map[string]string{"README.md": "r\n"})
	c, err := gh.NewActionClient(strings.TrimSuffix(f.URL(), "/"), f.ActionsToken(repo, perms), gh.ActionClientOptions{HTTPClient: f.HTTPClient()})
	if err != nil {
		t.Fatal(err)
	}
	return repo, c
}

// TestPullHistory: a pull request's commits, each with its files (an empty
// commit with none, a rename with both paths), and the paths changed from
// the merge base, as git's history walk gives them.
func TestPullHistory(t *testing.T) {
	repo, c := actionClient(t, ghfake.Permissions{"contents": "read"})
	base := repo.Commit("main", "plans", map[string]string{"plans/p/progress.json": "{}\n"})
	repo.Branch("f", "main")
	one := repo.Commit("f", "one", map[string]string{"src/a.go": "package a\n"})
	empty := repo.Commit("f", "empty", map[string]string{"src/a.go": "package a\n"})
	head := repo.Commit("f", "state", map[string]string{"plans/p/state/phase-1.json": "{}\n"})
	commits, changed, err := c.PullHistory(context.Background(), "acme", "widgets", base, head)
	if err != nil {
		t.Fatal(err)
	}
	want := []plans.Commit{{SHA: one, Files: []string{"src/a.go"}}, {SHA: empty}, {SHA: head, Files: []string{"plans/p/state/phase-1.json"}}}
	if diff := cmp.Diff(want, commits); diff != "" {
		t.Errorf("commits (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"plans/p/state/phase-1.json", "src/a.go"}, changed); diff != "" {
		t.Errorf("changed (-want +got):\n%s", diff)
	}
}

// TestPullHistoryRefusesACutComparison: GitHub lists at most 300 files in
// a comparison, so a comparison that long is an error, not a shorter
// history.
func TestPullHistoryRefusesACutComparison(t *testing.T) {
	repo, c := actionClient(t, ghfake.Permissions{"contents": "read"})
	base := repo.Head("main")
	repo.Branch("f", "main")
	files := map[string]string{}
	for i := range gh.MaxCompareFiles {
		files[fmt.Sprintf("f/%03d.txt", i)] = "x\n"
	}
	head := repo.Commit("f", "many", files)
	_, _, err := c.PullHistory(context.Background(), "acme", "widgets", base, head)
	if err == nil || !strings.Contains(err.Error(), "the history would be incomplete") {
		t.Errorf("PullHistory = %v, want the comparison refused as incomplete", err)
	}
}

// TestListDir: a folder's files (not its subfolders); nil for a folder
// that does not exist; an error when the token cannot read contents (a
// 404 then is no proof of absence).
func TestListDir(t *testing.T) {
	repo, c := actionClient(t, ghfake.Permissions{"contents": "read"})
	head := repo.Commit("main", "plans", map[string]string{"plans/p/progress.json": "{}\n", "plans/p/state/phase-1.json": "{}\n"})
	got, err := c.ListDir(context.Background(), "acme", "widgets", "plans/p", head)
	if err != nil || !cmp.Equal(got, []string{"plans/p/progress.json"}) {
		t.Errorf("ListDir = %v, %v", got, err)
	}
	if got, err := c.ListDir(context.Background(), "acme", "widgets", "plans/q", head); err != nil || got != nil {
		t.Errorf("ListDir of a missing folder = %v, %v; want nil, nil", got, err)
	}
	_, noContents := actionClient(t, ghfake.Permissions{"checks": "write"})
	if _, err := noContents.ListDir(context.Background(), "acme", "widgets", "plans/p", "main"); err == nil {
		t.Error("ListDir without contents: read found no folder instead of failing")
	}
}

// TestBlame: GitHub's blame of a file at a commit, line by line; an error
// for a missing file and for a token that cannot read contents.
func TestBlame(t *testing.T) {
	repo, c := actionClient(t, ghfake.Permissions{"contents": "read"})
	one := repo.CommitBy("ann", "main", "one", map[string]string{"log.md": "a\nb\n"})
	two := repo.CommitBy("bob", "main", "two", map[string]string{"log.md": "a\nB\nc\n"})
	got, err := c.Blame(context.Background(), "acme", "widgets", two, "log.md")
	if err != nil {
		t.Fatal(err)
	}
	mail := func(sha string) string {
		l, _ := c.Blame(context.Background(), "acme", "widgets", sha, "log.md")
		return l[1].AuthorMail
	}
	want := map[int]gh.BlameLine{1: {Commit: one, AuthorMail: mail(one)}, 2: {Commit: two, AuthorMail: got[2].AuthorMail}, 3: {Commit: two, AuthorMail: got[2].AuthorMail}}
	if diff := cmp.Diff(want, got); diff != "" || got[1].AuthorMail == got[2].AuthorMail {
		t.Errorf("Blame (-want +got):\n%s", diff)
	}
	if _, err := c.Blame(context.Background(), "acme", "widgets", two, "missing.md"); err == nil {
		t.Error("a missing file was blamed")
	}
	other, noContents := actionClient(t, ghfake.Permissions{"checks": "write"})
	if _, err := noContents.Blame(context.Background(), "acme", "widgets", other.Head("main"), "README.md"); err == nil || !strings.Contains(err.Error(), "contents: read") {
		t.Errorf("Blame without contents: read = %v, want an error naming the permission", err)
	}
}
