package gh_test

import (
	"context"
	"testing"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// installation is an installed App's clients on a fresh fake repository.
func installation(t *testing.T, perms ghfake.Permissions) (*ghfake.Fake, *ghfake.Repo, *gh.Installation, string) {
	t.Helper()
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	key := ghfake.NewAppKey()
	app := f.App(31, key)
	inst := app.Install("acme", perms, repo)
	clients := gh.NewClients(gh.NewAppAuth(31, key, f.URL(), nil), f.URL())
	clients.WritePause = 0
	in, err := clients.Installation(inst.ID)
	if err != nil {
		t.Fatal(err)
	}
	return f, repo, in, inst.Token()
}

func TestConversationWrites(t *testing.T) {
	f, repo, in, token := installation(t, ghfake.Permissions{"metadata": "read", "issues": "write", "pull_requests": "write", "contents": "read"})
	ctx := context.Background()
	repo.Grant("owner1", "admin")
	repo.Branch("f", "main")
	repo.Commit("f", "c", map[string]string{"x.go": "package x\n"})
	pr := repo.OpenPR("bob", "f", "main", "PR", "body")
	c := pr.Comment("owner1", "/aep hold release is frozen")
	if err := in.React(ctx, "acme", "widgets", c.ID(), "+1"); err != nil {
		t.Fatal(err)
	}
	if err := in.React(ctx, "acme", "widgets", c.ID(), "+1"); err != nil {
		t.Fatalf("a second identical reaction: %v", err)
	}
	id, err := in.Comment(ctx, "acme", "widgets", pr.Number(), "refused")
	if err != nil {
		t.Fatal(err)
	}
	if err := in.EditComment(ctx, "acme", "widgets", id, "refused (edited)"); err != nil {
		t.Fatal(err)
	}
	if err := in.RequestReviews(ctx, "acme", "widgets", pr.Number(), []string{"owner1"}); err != nil {
		t.Fatal(err)
	}
	n, url, err := in.CreateControlIssue(ctx, "acme", "widgets", "aepgate control", "HOLDs go here")
	if err != nil || url == "" {
		t.Fatal(err)
	}
	client := f.Client(token)
	reactions, _, err := client.Reactions.ListIssueCommentReactions(ctx, "acme", "widgets", c.ID(), nil)
	if err != nil || len(reactions) != 1 || reactions[0].GetContent() != "+1" {
		t.Errorf("reactions = %v, %v; want one +1", reactions, err)
	}
	got, _, err := client.Issues.GetComment(ctx, "acme", "widgets", id)
	if err != nil || got.GetBody() != "refused (edited)" {
		t.Errorf("comment = %q, %v", got.GetBody(), err)
	}
	reviewers, _, err := client.PullRequests.ListReviewers(ctx, "acme", "widgets", pr.Number(), nil)
	if err != nil || len(reviewers.Users) != 1 || reviewers.Users[0].GetLogin() != "owner1" {
		t.Errorf("requested reviewers = %+v, %v", reviewers, err)
	}
	is, _, err := client.Issues.Get(ctx, "acme", "widgets", n)
	if err != nil || len(is.Labels) != 1 || is.Labels[0].GetName() != gh.ControlLabel {
		t.Errorf("control issue = %+v, %v", is, err)
	}
	// A second control issue finds the label already there.
	if _, _, err := in.CreateControlIssue(ctx, "acme", "widgets", "again", ""); err != nil {
		t.Errorf("label already present: %v", err)
	}
}

// TestRoleIsLive: Role reports the finer role (maintain, triage), none
// for a stranger, and follows a change at once.
func TestRoleIsLive(t *testing.T) {
	_, repo, in, _ := installation(t, ghfake.Permissions{"metadata": "read"})
	repo.Grant("alice", "maintain")
	repo.Grant("tina", "triage")
	repo.Grant("bob", "read")
	repo.Grant("carol", "write")
	tests := []struct{ login, want string }{
		{"alice", "maintain"},
		{"tina", "triage"},
		{"bob", "read"},
		{"carol", "write"},
		{"acme", "admin"},   // the owner
		{"mallory", "none"}, // not a collaborator, an unknown user
	}
	for _, tt := range tests {
		got, err := in.Role(context.Background(), "acme", "widgets", tt.login)
		if err != nil || got != tt.want {
			t.Errorf("Role(%s) = %q, %v; want %q", tt.login, got, err, tt.want)
		}
	}
	repo.Grant("carol", "")
	if got, _ := in.Role(context.Background(), "acme", "widgets", "carol"); got != "none" {
		t.Errorf("after removal, carol = %q, want none", got)
	}
}

// TestRoleErrorIsNoRole: a failed look-up is an error, never a role.
func TestRoleErrorIsNoRole(t *testing.T) {
	f, repo, in, _ := installation(t, ghfake.Permissions{"metadata": "read"})
	repo.Grant("carol", "write")
	f.InjectFault("GET /repos/{owner}/{repo}/collaborators/{username}/permission", ghfake.Fault{Kind: ghfake.FaultStatus, Status: 500})
	if got, err := in.Role(context.Background(), "acme", "widgets", "carol"); err == nil || got != "" {
		t.Errorf("Role under a 500 = %q, %v; want an error", got, err)
	}
}
