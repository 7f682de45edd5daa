package ghfake_test

import (
	"context"
	"fmt"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// A story: an issue, a pull request that closes it, an approving review,
// CI, a squash merge, a tag and a release — then what the API reports.
// Fixing the clock first makes every SHA repeat run after run.
func Example() {
	f := ghfake.New(nil)
	defer f.Close()
	f.SetNow(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))

	repo := f.CreateRepo("acme/widgets")
	repo.Grant("auditor", "write")
	ms := repo.CreateMilestone("Increment 1", "")
	story := repo.OpenIssue("alice", "Add the frobnicator", "```yaml\ngoal: frobnicate\n```", ghfake.InMilestone(ms))
	repo.Branch("frob", "main")
	repo.CommitBy("alice", "frob", "frobnicator", map[string]string{"frob.go": "package frob\n"})
	pr := repo.OpenPR("alice", "frob", "main", "Frobnicator", fmt.Sprintf("Fixes #%d", story.Number()))
	pr.SubmitReview("auditor", "APPROVED", "```aep-audit\nverdict: PASS\n```")
	repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: pr.Head(), Branch: "frob", Event: "pull_request"})
	merge := pr.Merge(ghfake.Squash)
	repo.Tag("v1.0.0", merge, "v1.0.0")
	repo.PublishRelease("v1.0.0", ghfake.ReleaseOptions{Assets: map[string][]byte{"frob.tar.gz": []byte("bytes")}})

	inst := f.App(42, ghfake.NewAppKey()).Install("acme", ghfake.Permissions{"contents": "read", "issues": "read"})
	c := f.Client(inst.Token())
	ctx := context.Background()
	is, _, _ := c.Issues.Get(ctx, "acme", "widgets", story.Number())
	rel, _, _ := c.Repositories.GetReleaseByTag(ctx, "acme", "widgets", "v1.0.0")
	commit, _, _ := c.Git.GetCommit(ctx, "acme", "widgets", merge)
	fmt.Println("issue:", is.GetState())
	fmt.Println("merge parents:", len(commit.Parents))
	fmt.Println("merge message:", firstLine(commit.GetMessage()))
	fmt.Println("release assets:", len(rel.Assets), rel.Assets[0].GetName())
	fmt.Println("writes:", len(f.Writes()))
	// Output:
	// issue: closed
	// merge parents: 1
	// merge message: Frobnicator (#2)
	// release assets: 1 frob.tar.gz
	// writes: 0
}

func firstLine(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i]
		}
	}
	return s
}
