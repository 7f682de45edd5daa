package gh

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/google/go-github/v62/github"
)

// maxProofsRead bounds the commits one CommitProofs query reads; more
// take more queries.
const maxProofsRead = 100

// CommitProof is what GitHub says of one commit: its signature as GitHub
// verified it (GraphQL Commit.signature) and the account GitHub links to
// its author e-mail.
type CommitProof struct {
	SHA string
	// Found is false when GitHub knows no such commit in the repository.
	Found bool
	// State is the signature's GitSignatureState; "" when the commit
	// carries no signature. Valid is isValid, Signer the login of the
	// account GitHub verified it for ("" none), ByGitHub
	// wasSignedByGitHub (GitHub's own web-flow key).
	State    string
	Valid    bool
	Signer   string
	ByGitHub bool
	// AuthorLogin is the account GitHub links to the git author e-mail
	// ("" none). An e-mail is free text: this is a claim, never proof.
	AuthorLogin string
}

// CommitProofs reads what GitHub says of each commit in shas in
// owner/repo: one GraphQL query per 100 commits, each an aliased
// repository.object(oid:). REST's commit verification says whether a
// signature is verified but not for which account, so GraphQL's
// signature.signer is read.
//
// https://docs.github.com/graphql/reference/interfaces#gitsignature
func (a *ActionClient) CommitProofs(ctx context.Context, owner, repo string, shas []string) (map[string]CommitProof, error) {
	out := make(map[string]CommitProof, len(shas))
	for start := 0; start < len(shas); start += maxProofsRead {
		chunk := shas[start:min(start+maxProofsRead, len(shas))]
		if err := a.readProofs(ctx, owner, repo, chunk, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// proofNode is one aliased object of the proofs query.
type proofNode struct {
	Oid    string `json:"oid"`
	Author *struct {
		User *struct{ Login string } `json:"user"`
	} `json:"author"`
	Signature *struct {
		IsValid           bool                    `json:"isValid"`
		State             string                  `json:"state"`
		WasSignedByGitHub bool                    `json:"wasSignedByGitHub"`
		Signer            *struct{ Login string } `json:"signer"`
	} `json:"signature"`
}

// readProofs is one query for at most maxProofsRead commits.
func (a *ActionClient) readProofs(ctx context.Context, owner, repo string, shas []string, out map[string]CommitProof) error {
	q, vars := proofsQuery(owner, repo, shas)
	var data struct {
		Repository map[string]*proofNode
	}
	if err := graphQL(ctx, a.hc, a.graphqlURL, q, vars, &data); err != nil {
		return fmt.Errorf("read the signatures of %d commits of %s/%s (the token needs contents: read): %w", len(shas), owner, repo, err)
	}
	if data.Repository == nil {
		return fmt.Errorf("read commit signatures: repository %s/%s not visible to the token", owner, repo)
	}
	for i, sha := range shas {
		p := CommitProof{SHA: sha}
		if n := data.Repository["c"+strconv.Itoa(i)]; n != nil && strings.EqualFold(n.Oid, sha) {
			p.Found = true
			if n.Author != nil && n.Author.User != nil {
				p.AuthorLogin = n.Author.User.Login
			}
			if s := n.Signature; s != nil {
				p.State, p.Valid, p.ByGitHub = s.State, s.IsValid, s.WasSignedByGitHub
				if s.Signer != nil {
					p.Signer = s.Signer.Login
				}
			}
		}
		out[sha] = p
	}
	return nil
}

// proofsQuery builds the query: c<i> for each commit, the SHA a variable.
func proofsQuery(owner, repo string, shas []string) (string, map[string]any) {
	vars := map[string]any{"owner": owner, "name": repo}
	var decl, body strings.Builder
	decl.WriteString("$owner: String!, $name: String!")
	for i, sha := range shas {
		fmt.Fprintf(&decl, ", $c%d: GitObjectID!", i)
		fmt.Fprintf(&body, "  c%d: object(oid: $c%d) { ... on Commit { oid author { user { login } } "+
			"signature { isValid state wasSignedByGitHub signer { login } } } }\n", i, i)
		vars["c"+strconv.Itoa(i)] = sha
	}
	return "query(" + decl.String() + ") { repository(owner: $owner, name: $name) {\n" + body.String() + "} }", vars
}

// ErrTeamForbidden: the token may not read a team's members. ErrTeamHidden:
// GitHub shows the token no such team (it does not exist, or the token
// cannot see it).
var (
	ErrTeamForbidden = errors.New("the token may not read the team's members")
	ErrTeamHidden    = errors.New("GitHub shows the token no such team")
)

// TeamMembers lists the members of team slug in organization org (GET
// /orgs/{org}/teams/{team_slug}/members: an App token needs the
// organization permission members: read, a personal token read:org; a
// workflow's GITHUB_TOKEN cannot). A 401 or 403 wraps ErrTeamForbidden, a
// 404 ErrTeamHidden; neither is ever an empty team.
func (a *ActionClient) TeamMembers(ctx context.Context, org, slug string) ([]string, error) {
	what := fmt.Sprintf("read the members of @%s/%s", org, slug)
	return teamMembers(ctx, a.client, org, slug, what, func(err error) error {
		var ge *github.ErrorResponse
		if errors.As(err, &ge) && ge.Response != nil {
			switch ge.Response.StatusCode {
			case http.StatusUnauthorized, http.StatusForbidden:
				return fmt.Errorf("%s: %w: %w", what, ErrTeamForbidden, err)
			case http.StatusNotFound:
				return fmt.Errorf("%s: %w: %w", what, ErrTeamHidden, err)
			}
		}
		return fmt.Errorf("%s: %w", what, err)
	})
}
