package gh_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/readbackrules"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

var readbackPerms = ghfake.Permissions{"metadata": "read", "checks": "write", "contents": "read", "issues": "write", "pull_requests": "read", "actions": "read"}

// mergedPR opens a pull request with one CI run at its head and merges it
// with method.
func mergedPR(t *testing.T, repo *ghfake.Repo, method ghfake.MergeMethod) (*ghfake.PR, int64) {
	t.Helper()
	repo.Branch("f", "main")
	repo.Commit("f", "feature", map[string]string{"x.go": "package x\n"})
	pr := repo.OpenPR("bob", "f", "main", "Feature", "Work-unit: #1")
	ci := repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: pr.Head(), Branch: "f", Event: "pull_request", Conclusion: "success"})
	pr.Merge(method)
	return pr, ci.ID()
}

func TestMergedPullObservesTheMerge(t *testing.T) {
	ghfake.RequireGraphQL(t)
	f, repo, in, _ := installation(t, readbackPerms)
	pr, ciID := mergedPR(t, repo, ghfake.MergeCommit)
	ctx := context.Background()
	m, err := in.MergedPull(ctx, "acme", "widgets", pr.Number())
	if err != nil {
		t.Fatal(err)
	}
	merge := repo.Head("main")
	if !m.Merged || m.MergeSHA != merge || m.HeadSHA != pr.Head() || !m.HeadKnown || m.DefaultBranch != "main" || m.MergedAt.IsZero() {
		t.Fatalf("observation %+v", m)
	}
	if len(m.MergeParents) != 2 || m.MergeParents[1] != pr.Head() || m.MergeTree == "" || m.HeadTree == "" {
		t.Errorf("merge commit parents %v tree %q head tree %q", m.MergeParents, m.MergeTree, m.HeadTree)
	}
	want := []readbackrules.Run{{ID: ciID, Workflow: "ci", HeadSHA: pr.Head(), Event: "pull_request", Status: "completed", Conclusion: "success"}}
	if diff := cmp.Diff(want, m.PRRuns); diff != "" {
		t.Errorf("PR runs (-want +got):\n%s", diff)
	}
	repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: merge, Branch: "main", Event: "push", Conclusion: "failure"})
	f.ResetLog()
	runs, err := in.MainRuns(ctx, "acme", "widgets", merge, "main")
	if err != nil || len(runs) != 1 || runs[0].Branch != "main" || runs[0].Conclusion != "failure" || runs[0].Attempt != 1 || runs[0].ID == ciID {
		t.Fatalf("main runs %+v, %v", runs, err)
	}
	if n := f.Stats().Total; n != 1 {
		t.Errorf("main runs took %d requests, want 1", n)
	}
	nums, err := in.PullsMergedAs(ctx, "acme", "widgets", merge)
	if err != nil || !cmp.Equal(nums, []int{pr.Number()}) {
		t.Errorf("PullsMergedAs = %v, %v", nums, err)
	}
}

func TestContainsCommit(t *testing.T) {
	_, repo, in, _ := installation(t, readbackPerms)
	base := repo.Head("main")
	repo.Branch("f", "main")
	head := repo.Commit("f", "feature", map[string]string{"x.go": "package x\n"})
	other := repo.Commit("main", "other", map[string]string{"y.go": "package y\n"})
	ctx := context.Background()
	for _, tt := range []struct {
		base, head string
		want       bool
	}{{base, head, true}, {head, head, true}, {other, head, false}, {head, base, false}} {
		got, err := in.ContainsCommit(ctx, "acme", "widgets", tt.base, tt.head)
		if err != nil || got != tt.want {
			t.Errorf("ContainsCommit(%s, %s) = %v, %v; want %v", tt.base[:7], tt.head[:7], got, err, tt.want)
		}
	}
}

func TestMainRunsWithoutActionsRead(t *testing.T) {
	_, repo, in, _ := installation(t, ghfake.Permissions{"metadata": "read", "checks": "write", "contents": "read"})
	_, err := in.MainRuns(context.Background(), "acme", "widgets", repo.Head("main"), "main")
	if !errors.Is(err, gh.ErrRunsForbidden) {
		t.Errorf("err = %v, want ErrRunsForbidden", err)
	}
}

func TestMergedPullWithoutActionsRead(t *testing.T) {
	ghfake.RequireGraphQL(t)
	_, repo, in, _ := installation(t, ghfake.Permissions{"metadata": "read", "checks": "write", "contents": "read", "pull_requests": "read"})
	pr, _ := mergedPR(t, repo, ghfake.Squash)
	m, err := in.MergedPull(context.Background(), "acme", "widgets", pr.Number())
	if err != nil {
		t.Fatal(err)
	}
	if m.RunsUnreadable == "" || len(m.PRRuns) != 0 || len(m.MergeParents) != 1 {
		t.Errorf("observation %+v", m)
	}
}

func TestRecentMerges(t *testing.T) {
	ghfake.RequireGraphQL(t)
	f, repo, in, _ := installation(t, readbackPerms)
	since := f.Now()
	pr, _ := mergedPR(t, repo, ghfake.Rebase)
	repo.Branch("g", "main")
	repo.Commit("g", "open", map[string]string{"z.go": "package z\n"})
	repo.OpenPR("bob", "g", "main", "Open", "")
	at := func(t time.Time) func(snapshot.ConfigFile) time.Time {
		return func(snapshot.ConfigFile) time.Time { return t }
	}
	got, err := in.RecentMerges(context.Background(), "acme", "widgets", at(since))
	if err != nil || got.DefaultBranch != "main" || len(got.Merges) != 1 {
		t.Fatalf("RecentMerges = %+v, %v", got, err)
	}
	if m := got.Merges[0]; m.Number != pr.Number() || m.MergeSHA != repo.Head("main") || m.BaseRef != "main" {
		t.Errorf("merge %+v", m)
	}
	later, err := in.RecentMerges(context.Background(), "acme", "widgets", at(f.Now().Add(time.Hour)))
	if err != nil || len(later.Merges) != 0 {
		t.Errorf("RecentMerges after the merge = %+v, %v", later, err)
	}
}

// TestMergedPullReadsWhoMerged: the readback query reads mergedBy (a Bot
// in REST's login form) and the pull request's comments, edited ones
// marked.
func TestMergedPullReadsWhoMerged(t *testing.T) {
	ghfake.RequireGraphQL(t)
	_, repo, in, _ := installation(t, readbackPerms)
	repo.Branch("f", "main")
	repo.Commit("f", "feature", map[string]string{"x.go": "package x\n"})
	pr := repo.OpenPR("bob", "f", "main", "Feature", "Work-unit: #1")
	if _, err := pr.MergeBy("github-merge-queue[bot]", ghfake.MergeCommit); err != nil {
		t.Fatal(err)
	}
	c := pr.Comment("olivia", "/aep accept-merge "+repo.Head("main"))
	pr.Comment("mallory", "first").Edit("mallory", "edited")
	m, err := in.MergedPull(context.Background(), "acme", "widgets", pr.Number())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(snapshot.Actor{Login: "github-merge-queue[bot]", Type: "Bot"}, m.MergedBy); diff != "" {
		t.Errorf("merged by (-want +got):\n%s", diff)
	}
	type seen struct {
		ID     int64
		Login  string
		Edited bool
	}
	var got []seen
	for _, x := range m.Comments.Comments {
		got = append(got, seen{x.ID, x.Author.Login, x.Edited})
	}
	if len(got) != 2 || got[0] != (seen{c.ID(), "olivia", false}) || got[1].Login != "mallory" || !got[1].Edited {
		t.Errorf("comments %+v", got)
	}
}
