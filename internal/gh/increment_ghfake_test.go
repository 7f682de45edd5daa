package gh_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

func TestIncrementReads(t *testing.T) {
	f, repo, in, _ := installation(t, ghfake.Permissions{"metadata": "read", "issues": "write", "contents": "read", "actions": "read", "deployments": "read"})
	ctx := context.Background()
	m := repo.CreateMilestone("M1", "```yaml\ndemonstration: it works\n```")
	s1 := repo.OpenIssue("olivia", "One", storyBody, ghfake.InMilestone(m))
	repo.OpenIssue("olivia", "Two", storyBody, ghfake.InMilestone(m))
	repo.OpenIssue("olivia", "Elsewhere", storyBody)
	s1.Close("olivia")

	f.ResetLog()
	got, err := in.Milestone(ctx, "acme", "widgets", m.Number())
	if err != nil {
		t.Fatal(err)
	}
	if n := f.Calls("GET /repos/{owner}/{repo}/milestones/{milestone_number}") + f.Calls("GET /repos/{owner}/{repo}/issues"); n != 2 || len(f.Requests()) > 3 {
		t.Errorf("the milestone read made %d reads (%d requests with the token), want 2", n, len(f.Requests()))
	}
	for i := range got.Stories {
		got.Stories[i].ClosedAt = "" // the fake's clock
	}
	want := &gh.Milestone{Found: true, Number: 1, Title: "M1", Open: true, Description: "```yaml\ndemonstration: it works\n```",
		Stories: []gh.MilestoneIssue{{Number: 1, StateReason: "completed", Body: storyBody}, {Number: 2, Open: true, Body: storyBody}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Milestone (-want +got):\n%s", diff)
	}
	if none, err := in.Milestone(ctx, "acme", "widgets", 9); err != nil || none.Found {
		t.Errorf("Milestone(9) = %+v, %v; want not found", none, err)
	}

	m.CloseBy("carl")
	if err := in.ReopenMilestone(ctx, "acme", "widgets", m.Number()); err != nil || !m.Open() {
		t.Errorf("ReopenMilestone: %v, open %v", err, m.Open())
	}

	head := repo.Commit("main", "second", map[string]string{"b.go": "package b\n"})
	commits, err := in.BranchCommits(ctx, "acme", "widgets", "main")
	if err != nil || len(commits) == 0 || commits[0] != head {
		t.Errorf("BranchCommits = %v, %v; want %s first", commits, err, head)
	}

	ok := repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "e2e", Conclusion: "success"})
	failed := repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "e2e", Conclusion: "failure"})
	deployment := repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "deploy"}).RequestDeployment("production")
	repo.PublishRelease("v1.0.0", ghfake.ReleaseOptions{})
	evidence := []struct {
		name string
		read func() (string, error)
		ok   bool
	}{
		{"run succeeded", func() (string, error) { return in.RunEvidence(ctx, "acme", "widgets", ok.ID()) }, true},
		{"run failed", func() (string, error) { return in.RunEvidence(ctx, "acme", "widgets", failed.ID()) }, false},
		{"no such run", func() (string, error) { return in.RunEvidence(ctx, "acme", "widgets", 999999) }, false},
		{"deployment", func() (string, error) { return in.DeploymentEvidence(ctx, "acme", "widgets", deployment) }, true},
		{"no such deployment", func() (string, error) { return in.DeploymentEvidence(ctx, "acme", "widgets", 999999) }, false},
		{"release", func() (string, error) { return in.ReleaseEvidence(ctx, "acme", "widgets", "v1.0.0") }, true},
		{"no such release", func() (string, error) { return in.ReleaseEvidence(ctx, "acme", "widgets", "v9") }, false},
	}
	for _, e := range evidence {
		why, err := e.read()
		if err != nil || (why == "") != e.ok {
			t.Errorf("%s: why %q, err %v; want ok %v", e.name, why, err, e.ok)
		}
	}
}
