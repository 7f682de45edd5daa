package ghfake_test

import (
	"net/http"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-github/v62/github"
)

// prStory opens issue #1 and a PR (#2) from feature with two commits, while
// main moves on with an unrelated change.
func prStory(t *testing.T) (*ghfake.Repo, *ghfake.PR, *github.Client, string) {
	t.Helper()
	_, repo, _, c := installed(t)
	repo.OpenIssue("alice", "Story", "")
	repo.Branch("feature", "main")
	repo.CommitBy("alice", "feature", "one", map[string]string{"a.txt": "a\n"})
	repo.CommitBy("alice", "feature", "two", map[string]string{"b.txt": "b\n"})
	pr := repo.OpenPR("alice", "feature", "main", "Add a and b", "Fixes #1")
	base := repo.Commit("main", "unrelated", map[string]string{"c.txt": "c\n"})
	return repo, pr, c, base
}

func TestMergeMethods(t *testing.T) {
	tests := []struct {
		method      ghfake.MergeMethod
		wantParents int
		wantNew     int // commits added to main
	}{
		{ghfake.MergeCommit, 2, 3},
		{ghfake.Squash, 1, 1},
		{ghfake.Rebase, 1, 2},
	}
	for _, tt := range tests {
		t.Run(string(tt.method), func(t *testing.T) {
			repo, pr, c, base := prStory(t)
			head := pr.Head()
			res, _, err := c.PullRequests.Merge(ctx, "acme", "widgets", pr.Number(), "", &github.PullRequestOptions{MergeMethod: string(tt.method), SHA: head})
			if err != nil || !res.GetMerged() {
				t.Fatalf("Merge: %v, %v", res, err)
			}
			sha := res.GetSHA()
			if repo.Head("main") != sha {
				t.Errorf("main = %s, want merge SHA %s", repo.Head("main"), sha)
			}
			commit, _, _ := c.Git.GetCommit(ctx, "acme", "widgets", sha)
			if len(commit.Parents) != tt.wantParents {
				t.Errorf("parents = %d, want %d", len(commit.Parents), tt.wantParents)
			}
			if tt.method == ghfake.MergeCommit && (commit.Parents[0].GetSHA() != base || commit.Parents[1].GetSHA() != head) {
				t.Errorf("merge commit parents = %s, %s; want base %s, head %s", commit.Parents[0].GetSHA(), commit.Parents[1].GetSHA(), base, head)
			}
			cmpRes, _, _ := c.Repositories.CompareCommits(ctx, "acme", "widgets", base, "main", nil)
			if cmpRes.GetAheadBy() != tt.wantNew {
				t.Errorf("main gained %d commits, want %d", cmpRes.GetAheadBy(), tt.wantNew)
			}
			tree, _, _ := c.Git.GetTree(ctx, "acme", "widgets", sha, true)
			if len(tree.Entries) != 4 {
				t.Errorf("merged tree has %d entries, want README, a, b, c", len(tree.Entries))
			}
			got, _, _ := c.PullRequests.Get(ctx, "acme", "widgets", pr.Number())
			if !got.GetMerged() || got.GetMergeCommitSHA() != sha || got.GetState() != "closed" || got.GetHead().GetSHA() != head {
				t.Errorf("PR after merge = merged %v sha %s state %s head %s", got.GetMerged(), got.GetMergeCommitSHA(), got.GetState(), got.GetHead().GetSHA())
			}
			is, _, _ := c.Issues.Get(ctx, "acme", "widgets", 1)
			if is.GetState() != "closed" {
				t.Errorf("issue #1 named by 'Fixes #1' is %s, want closed", is.GetState())
			}
		})
	}
}

func TestMergeRefusals(t *testing.T) {
	repo, pr, c, _ := prStory(t)
	_, _, err := c.PullRequests.Merge(ctx, "acme", "widgets", pr.Number(), "", &github.PullRequestOptions{SHA: repo.Head("main")})
	if status(err) != http.StatusConflict {
		t.Errorf("stale sha: err = %v, want 409", err)
	}
	repo.Commit("main", "conflict", map[string]string{"a.txt": "different\n"})
	got, _, _ := c.PullRequests.Get(ctx, "acme", "widgets", pr.Number())
	if got.GetMergeable() || got.GetMergeableState() != "dirty" {
		t.Errorf("mergeable = %v %q, want false dirty", got.GetMergeable(), got.GetMergeableState())
	}
	if _, _, err := c.PullRequests.Merge(ctx, "acme", "widgets", pr.Number(), "", nil); status(err) != http.StatusMethodNotAllowed {
		t.Errorf("conflicting merge: err = %v, want 405", err)
	}
}

func TestReviewsBindToCommits(t *testing.T) {
	repo, pr, c, _ := prStory(t)
	repo.Grant("auditor", "write")
	first := pr.Head()
	pr.RequestReviewers("alice", "auditor")
	if _, _, err := c.PullRequests.RequestReviewers(ctx, "acme", "widgets", pr.Number(), github.ReviewersRequest{Reviewers: []string{"outsider"}}); status(err) != 422 {
		t.Errorf("requesting a non-collaborator: err = %v, want 422", err)
	}
	if _, _, err := c.PullRequests.RequestReviewers(ctx, "acme", "widgets", pr.Number(), github.ReviewersRequest{Reviewers: []string{"alice"}}); status(err) != 422 {
		t.Errorf("requesting the author: err = %v, want 422", err)
	}
	pr.SubmitReview("auditor", "APPROVED", "```aep-audit\nverdict: PASS\n```")
	second := pr.Commit("fix", map[string]string{"a.txt": "a2\n"})
	reviews, _, err := c.PullRequests.ListReviews(ctx, "acme", "widgets", pr.Number(), nil)
	if err != nil || len(reviews) != 1 || reviews[0].GetCommitID() != first || reviews[0].GetState() != "APPROVED" {
		t.Fatalf("reviews = %+v, %v; want one APPROVED at %s", reviews, err, first)
	}
	got, _, _ := c.PullRequests.Get(ctx, "acme", "widgets", pr.Number())
	if got.GetHead().GetSHA() != second || len(got.RequestedReviewers) != 0 {
		t.Errorf("head = %s (want %s), requested = %d (want 0 after review)", got.GetHead().GetSHA(), second, len(got.RequestedReviewers))
	}
	commits, _, _ := c.PullRequests.ListCommits(ctx, "acme", "widgets", pr.Number(), nil)
	if len(commits) != 3 || commits[0].GetCommit().GetAuthor().GetName() != "alice" {
		t.Errorf("PR commits = %d, first author %q", len(commits), commits[0].GetCommit().GetAuthor().GetName())
	}
}

func TestWorkflowRunsAtSHA(t *testing.T) {
	_, repo, _, c := installed(t)
	sha := repo.Head("main")
	ci := repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", Conclusion: "failure"})
	repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", Event: "pull_request", Branch: "main"})
	ci.Rerun("success")
	runs, _, err := c.Actions.ListRepositoryWorkflowRuns(ctx, "acme", "widgets", &github.ListWorkflowRunsOptions{HeadSHA: sha, Event: "push", Branch: "main"})
	if err != nil {
		t.Fatalf("ListRepositoryWorkflowRuns: %v", err)
	}
	if runs.GetTotalCount() != 1 {
		t.Fatalf("runs = %d, want 1", runs.GetTotalCount())
	}
	r := runs.WorkflowRuns[0]
	if r.GetID() != ci.ID() || r.GetRunAttempt() != 2 || r.GetConclusion() != "success" || r.GetHeadSHA() != sha {
		t.Errorf("run = id %d attempt %d conclusion %s", r.GetID(), r.GetRunAttempt(), r.GetConclusion())
	}
	first, _, err := c.Actions.GetWorkflowRunAttempt(ctx, "acme", "widgets", ci.ID(), 1, nil)
	if err != nil || first.GetConclusion() != "failure" {
		t.Errorf("attempt 1 = %s, %v; want failure", first.GetConclusion(), err)
	}
	checks := repo.CheckRuns(sha)
	if len(checks) != 3 || checks[0].AppID != ghfake.ActionsAppID {
		t.Errorf("Actions check runs = %d, want one per attempt and run (3)", len(checks))
	}
}
