package ghfake_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-github/v62/github"
)

// authorityWorld is acme/widgets with pull request #… from branch feature
// by bob (write), webhooks collected for an installed App.
func authorityWorld(t *testing.T) (*ghfake.Fake, *ghfake.Repo, *ghfake.PR) {
	t.Helper()
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	app := f.App(77, testKey())
	app.Install("acme", ghfake.Permissions{"pull_requests": "write", "contents": "write"}, repo)
	f.CollectWebhooks("s", app)
	repo.Grant("bob", "write")
	repo.Branch("feature", "main")
	repo.CommitBy("bob", "feature", "work", map[string]string{"a.go": "package a\n"})
	return f, repo, repo.OpenPR("bob", "feature", "main", "Work", "body")
}

// sent returns the newest delivery of event and action, with its sender.
func sent(t *testing.T, f *ghfake.Fake, event, action string) (ghfake.Delivery, string) {
	t.Helper()
	ds := f.Deliveries()
	for i := len(ds) - 1; i >= 0; i-- {
		if ds[i].Event == event && ds[i].Action == action {
			var p struct {
				Sender struct {
					Login string `json:"login"`
				} `json:"sender"`
			}
			if err := json.Unmarshal(ds[i].Payload, &p); err != nil {
				t.Fatal(err)
			}
			return ds[i], p.Sender.Login
		}
	}
	t.Fatalf("no %s.%s delivery", event, action)
	return ghfake.Delivery{}, ""
}

// TestStrangerReview: on a public repository a user with no permission
// may review through REST (as on GitHub), is "none" to the permission
// endpoint, and is the sender of the review's delivery; on a private one
// the repository is not found.
func TestStrangerReview(t *testing.T) {
	f, repo, pr := authorityWorld(t)
	ctx := context.Background()
	c := client(t, f, f.UserToken("stranger"))
	rv, _, err := c.PullRequests.CreateReview(ctx, "acme", "widgets", pr.Number(), &github.PullRequestReviewRequest{Event: github.String("COMMENT"), Body: github.String("looks fine")})
	if err != nil {
		t.Fatalf("a stranger's review on a public repository: %v", err)
	}
	if rv.GetUser().GetLogin() != "stranger" || rv.GetState() != "COMMENTED" {
		t.Errorf("review = %s by %s", rv.GetState(), rv.GetUser().GetLogin())
	}
	if _, who := sent(t, f, "pull_request_review", "submitted"); who != "stranger" {
		t.Errorf("review delivery sender = %q", who)
	}
	p, _, err := c.Repositories.GetPermissionLevel(ctx, "acme", "widgets", "stranger")
	if err != nil || p.GetPermission() != "none" {
		t.Errorf("stranger's permission = %q, %v; want none", p.GetPermission(), err)
	}
	if _, _, err := c.Issues.CreateComment(ctx, "acme", "widgets", pr.Number(), &github.IssueComment{Body: github.String("hi")}); err != nil {
		t.Errorf("a stranger's comment on a public repository: %v", err)
	}
	if _, _, err := c.Issues.Edit(ctx, "acme", "widgets", pr.Number(), &github.IssueRequest{Title: github.String("mine")}); status(err) != http.StatusForbidden {
		t.Errorf("a stranger's edit of the pull request: %v; want 403", err)
	}
	repo.SetPrivate(true)
	_, _, err = c.PullRequests.CreateReview(ctx, "acme", "widgets", pr.Number(), &github.PullRequestReviewRequest{Event: github.String("COMMENT"), Body: github.String("again")})
	if status(err) != http.StatusNotFound {
		t.Errorf("a stranger's review on a private repository: %v; want 404", err)
	}
}

// TestDismissReviewREST: a dismissal needs a message, turns the review
// DISMISSED and delivers pull_request_review.dismissed by the dismisser.
func TestDismissReviewREST(t *testing.T) {
	f, repo, pr := authorityWorld(t)
	ctx := context.Background()
	repo.Grant("olivia", "admin")
	id := pr.SubmitReview("carol", "APPROVED", "")
	c := client(t, f, f.UserToken("olivia"))
	if _, _, err := c.PullRequests.DismissReview(ctx, "acme", "widgets", pr.Number(), id, &github.PullRequestReviewDismissalRequest{}); status(err) != http.StatusUnprocessableEntity {
		t.Errorf("a dismissal without a message: %v; want 422", err)
	}
	rv, _, err := c.PullRequests.DismissReview(ctx, "acme", "widgets", pr.Number(), id, &github.PullRequestReviewDismissalRequest{Message: github.String("stale")})
	if err != nil || rv.GetState() != "DISMISSED" {
		t.Fatalf("dismissal = %s, %v", rv.GetState(), err)
	}
	if _, who := sent(t, f, "pull_request_review", "dismissed"); who != "olivia" {
		t.Errorf("dismissal delivery sender = %q", who)
	}
	if _, _, err := client(t, f, f.UserToken("stranger")).PullRequests.DismissReview(ctx, "acme", "widgets", pr.Number(), id, &github.PullRequestReviewDismissalRequest{Message: github.String("mine")}); status(err) != http.StatusForbidden {
		t.Errorf("a stranger's dismissal: %v; want 403", err)
	}
}

// robot is a git identity linked to no account.
var robot = &github.CommitAuthor{Name: github.String("Build Robot"), Email: github.String("robot@corp.example")}

// TestPushUnderAnotherIdentity: a writer's git-data commit authored and
// committed by an unlinked identity has no GitHub author or committer,
// and moving the branch delivers synchronize and push with the writer as
// sender; PushAs does the same in one call.
func TestPushUnderAnotherIdentity(t *testing.T) {
	f, repo, pr := authorityWorld(t)
	ctx := context.Background()
	repo.Grant("mallory", "write")
	c := client(t, f, f.UserToken("mallory"))
	head := pr.Head()
	base, _, err := c.Git.GetCommit(ctx, "acme", "widgets", head)
	if err != nil {
		t.Fatal(err)
	}
	tree, _, err := c.Git.CreateTree(ctx, "acme", "widgets", base.GetTree().GetSHA(), []*github.TreeEntry{{Path: github.String("b.go"), Mode: github.String("100644"), Type: github.String("blob"), Content: github.String("package a\n")}})
	if err != nil {
		t.Fatal(err)
	}
	commit, _, err := c.Git.CreateCommit(ctx, "acme", "widgets", &github.Commit{Message: github.String("robot"), Tree: tree, Parents: []*github.Commit{{SHA: github.String(head)}}, Author: robot, Committer: robot}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Git.UpdateRef(ctx, "acme", "widgets", &github.Reference{Ref: github.String("refs/heads/feature"), Object: &github.GitObject{SHA: commit.SHA}}, false); err != nil {
		t.Fatal(err)
	}
	if pr.Head() != commit.GetSHA() {
		t.Fatalf("head %s, want the robot commit %s", pr.Head(), commit.GetSHA())
	}
	rc, _, err := c.Repositories.GetCommit(ctx, "acme", "widgets", commit.GetSHA(), nil)
	if err != nil || rc.Author != nil || rc.Committer != nil || rc.GetCommit().GetAuthor().GetEmail() != "robot@corp.example" {
		t.Errorf("robot commit: author %v committer %v git author %v (%v); want no accounts", rc.GetAuthor(), rc.GetCommitter(), rc.GetCommit().GetAuthor(), err)
	}
	for _, ev := range [][2]string{{"pull_request", "synchronize"}, {"push", ""}} {
		if _, who := sent(t, f, ev[0], ev[1]); who != "mallory" {
			t.Errorf("%s sender = %q, want mallory", ev[0], who)
		}
	}
	sha := repo.PushAs("zed", "feature", "again", ghfake.Signature{Name: "Build Robot", Email: "robot@corp.example"}, map[string]string{"c.go": "package a\n"})
	if pr.Head() != sha {
		t.Errorf("PushAs did not move the head")
	}
	if d, who := sent(t, f, "pull_request", "synchronize"); who != "zed" || !json.Valid(d.Payload) {
		t.Errorf("PushAs synchronize sender = %q", who)
	}
}
