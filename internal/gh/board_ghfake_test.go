package gh_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/boardview"
)

const storyBody = "```yaml\ngoal: g\nacceptance: [a]\nnon_goals: []\nrisk: low\nclass: product\n```\n"

func TestBoardReadAndWrite(t *testing.T) {
	f, repo, in, token := installation(t, ghfake.Permissions{"metadata": "read", "issues": "write", "pull_requests": "read", "contents": "read"})
	ctx := context.Background()
	m := repo.CreateMilestone("Reports", "")
	u1 := repo.OpenIssue("owner1", "Export", storyBody, ghfake.InMilestone(m))
	u2 := repo.OpenIssue("owner1", "Import", storyBody, ghfake.InMilestone(m), ghfake.WithLabels(gh.CertifiedLabel))
	repo.Branch("a", "main")
	repo.Commit("a", "c", map[string]string{"a.go": "package a\n"})
	repo.Branch("b", "main")
	repo.Commit("b", "c", map[string]string{"b.go": "package b\n"})
	p1 := repo.OpenPR("bob", "a", "main", "Export it", "Work-unit: #1")
	repo.OpenPR("bob", "b", "main", "Two units", "Work-unit: #1\nWork-unit: #2")
	repo.OpenIssue("bob", "mentions #1", "see #1") // an issue, not an attempt

	f.ResetLog()
	got, err := in.Board(ctx, "acme", "widgets")
	if err != nil {
		t.Fatal(err)
	}
	if n := f.Calls("POST /graphql"); n != 1 {
		t.Errorf("the board read made %d GraphQL calls, want 1", n)
	}
	if got.Labelled != nil {
		t.Errorf("labelled issues = %+v before one was created", got.Labelled)
	}
	u := "https://github.com/acme/widgets"
	want := []boardview.Milestone{{Number: 1, Title: "Reports", URL: u + "/milestone/1", Open: true, Issues: []boardview.Issue{
		{Number: u1.Number(), Title: "Export", URL: u + "/issues/1", Open: true, Body: storyBody,
			Pulls: []boardview.Pull{{Number: p1.Number(), Title: "Export it", URL: u + "/pull/3", State: "OPEN", Head: p1.Head()}}},
		{Number: u2.Number(), Title: "Import", URL: u + "/issues/2", Open: true, Body: storyBody, Certified: true},
	}}}
	if diff := cmp.Diff(want, got.Milestones); diff != "" {
		t.Errorf("milestones (-want +got):\n%s", diff)
	}

	created, err := in.CreateBoardIssue(ctx, "acme", "widgets", "first")
	if err != nil {
		t.Fatal(err)
	}
	if err := in.PinIssue(ctx, created.NodeID); err != nil {
		t.Fatal(err)
	}
	if !repo.Issue(created.Number).Pinned() {
		t.Error("the board issue is not pinned")
	}
	if err := in.EditIssueBody(ctx, "acme", "widgets", created.Number, "second"); err != nil {
		t.Fatal(err)
	}
	again, err := in.Board(ctx, "acme", "widgets")
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Labelled) != 1 || again.Labelled[0].Number != created.Number || again.Labelled[0].Body != "second" ||
		!strings.HasSuffix(again.Labelled[0].URL, "/issues/6") || !strings.HasSuffix(again.Labelled[0].Author, "[bot]") {
		t.Errorf("labelled issues = %+v, want #%d by the App with the edited body", again.Labelled, created.Number)
	}
	is, _, err := f.Client(token).Issues.Get(ctx, "acme", "widgets", created.Number)
	if err != nil {
		t.Fatal(err)
	}
	if is.GetTitle() != checks.BoardTitle || len(is.Labels) != 1 || is.Labels[0].GetName() != checks.BoardLabel {
		t.Errorf("board issue %q labelled %v, want %q labelled %s", is.GetTitle(), is.Labels, checks.BoardTitle, checks.BoardLabel)
	}
}
