package gh_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/deployrules"
)

// TestCompare: the comparison's status, its count and its commits with
// their parents (first parent first), oldest first, in one read.
func TestCompare(t *testing.T) {
	f, repo, in, _ := installation(t, readbackPerms)
	base := repo.Head("main")
	direct := repo.Commit("main", "straight to main", map[string]string{"y.go": "package y\n"})
	repo.Branch("f", "main")
	work := repo.Commit("f", "feature", map[string]string{"x.go": "package x\n"})
	pr := repo.OpenPR("bob", "f", "main", "Feature", "")
	merge := pr.Merge(ghfake.MergeCommit)
	ctx := context.Background()
	f.ResetLog()
	got, err := in.Compare(ctx, "acme", "widgets", base, merge)
	if err != nil {
		t.Fatal(err)
	}
	want := deployrules.Comparison{Status: "ahead", Total: 3, Commits: []deployrules.Commit{
		{SHA: direct, Parents: []string{base}}, {SHA: work, Parents: []string{direct}}, {SHA: merge, Parents: []string{direct, work}}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Compare (-want +got):\n%s", diff)
	}
	if n := f.Stats().ByRoute["GET /repos/{owner}/{repo}/compare/{basehead...}"]; n != 1 || f.Stats().Total-n > 1 {
		t.Errorf("a comparison took %d reads of the comparison (%v), want 1 and at most a token", n, f.Stats().ByRoute)
	}
	if back, err := in.Compare(ctx, "acme", "widgets", merge, base); err != nil || back.Status != "behind" || len(back.Commits) != 0 {
		t.Errorf("Compare(merge, base) = %+v, %v; want behind with no commits", back, err)
	}
}
