package gh_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestCommitProofs reads many commits' signatures and linked authors in
// one GraphQL query per 100 commits (validated by the fake against
// GitHub's schema), with a workflow token holding contents: read; an
// unknown commit is not found.
func TestCommitProofs(t *testing.T) {
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	var shas []string
	want := map[string]gh.CommitProof{}
	for i := range 101 {
		sha := repo.CommitBy("ann", "main", "m", map[string]string{"f": fmt.Sprint(i)})
		shas = append(shas, sha)
		want[sha] = gh.CommitProof{SHA: sha, Found: true, AuthorLogin: "ann"}
	}
	repo.SignCommit(shas[0], ghfake.Verification{Signer: "ann"})
	want[shas[0]] = gh.CommitProof{SHA: shas[0], Found: true, State: "VALID", Valid: true, Signer: "ann", AuthorLogin: "ann"}
	repo.SignCommit(shas[1], ghfake.Verification{Signer: "ann", ByGitHub: true})
	want[shas[1]] = gh.CommitProof{SHA: shas[1], Found: true, State: "VALID", Valid: true, Signer: "ann", ByGitHub: true, AuthorLogin: "ann"}
	repo.SignCommit(shas[2], ghfake.Verification{Signer: "bob", State: "UNVERIFIED_EMAIL"})
	want[shas[2]] = gh.CommitProof{SHA: shas[2], Found: true, State: "UNVERIFIED_EMAIL", Signer: "bob", AuthorLogin: "ann"}
	unknown := "0123456789012345678901234567890123456789"
	shas = append(shas, unknown)
	want[unknown] = gh.CommitProof{SHA: unknown}

	c, err := gh.NewActionClient(f.URL(), f.ActionsToken(repo, ghfake.Permissions{"contents": "read"}), gh.ActionClientOptions{HTTPClient: f.HTTPClient()})
	if err != nil {
		t.Fatal(err)
	}
	f.ResetLog()
	got, err := c.CommitProofs(context.Background(), "acme", "widgets", shas)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CommitProofs (-want +got):\n%s", diff)
	}
	if n := len(f.Requests()); n != 2 {
		t.Errorf("%d requests for 102 commits, want 2 GraphQL queries", n)
	}
}

// TestActionTeamMembers: a token that may read members lists them; the
// workflow token cannot (ErrTeamForbidden), and a team GitHub does not
// show is ErrTeamHidden, never an empty team.
func TestActionTeamMembers(t *testing.T) {
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	f.SetTeam("acme", "auditors", "carol", "dan")
	open := func(tok string) *gh.ActionClient {
		c, err := gh.NewActionClient(f.URL(), tok, gh.ActionClientOptions{HTTPClient: f.HTTPClient()})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	ctx := context.Background()
	got, err := open(f.UserToken("octo")).TeamMembers(ctx, "acme", "auditors")
	if diff := cmp.Diff([]string{"carol", "dan"}, got); diff != "" || err != nil {
		t.Errorf("members (-want +got), %v:\n%s", err, diff)
	}
	if _, err := open(f.ActionsToken(repo, ghfake.Permissions{"contents": "read"})).TeamMembers(ctx, "acme", "auditors"); !errors.Is(err, gh.ErrTeamForbidden) {
		t.Errorf("workflow token: %v, want ErrTeamForbidden", err)
	}
	if _, err := open(f.UserToken("octo")).TeamMembers(ctx, "acme", "nobody"); !errors.Is(err, gh.ErrTeamHidden) {
		t.Errorf("unknown team: %v, want ErrTeamHidden", err)
	}
}
