package gh_test

import (
	"context"
	"testing"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestCommitAuthorLogin reads the login GitHub links to a commit's author
// (GET /repos/{owner}/{repo}/commits/{ref}), with a contents: read token.
func TestCommitAuthorLogin(t *testing.T) {
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	sha := repo.CommitBy("ann", "main", "verdict", map[string]string{"log.md": "APPROVED\n"})
	c := f.Client(f.ActionsToken(repo, ghfake.Permissions{"contents": "read"}))
	got, err := gh.CommitAuthorLogin(context.Background(), c, "acme", "widgets", sha)
	if err != nil || got != "ann" {
		t.Errorf("CommitAuthorLogin = %q, %v; want ann", got, err)
	}
	if _, err := gh.CommitAuthorLogin(context.Background(), c, "acme", "widgets", "0000000000000000000000000000000000000000"); err == nil {
		t.Errorf("an unknown commit gave no error")
	}
}
