package gh

import (
	"context"
	"fmt"

	"github.com/google/go-github/v62/github"
)

// CommitAuthorLogin returns the login of the GitHub account linked to the
// author of commit sha in owner/repo; "" when its e-mail is linked to no
// account.
//
// GitHub API docs: https://docs.github.com/rest/commits/commits#get-a-commit
func CommitAuthorLogin(ctx context.Context, c *github.Client, owner, repo, sha string) (string, error) {
	cm, _, err := c.Repositories.GetCommit(ctx, owner, repo, sha, &github.ListOptions{PerPage: 1})
	if err != nil {
		return "", fmt.Errorf("read commit %s (the token needs contents: read): %w", sha, err)
	}
	return cm.GetAuthor().GetLogin(), nil
}

// CommitAuthor returns the login linked to commit sha's author; see
// CommitAuthorLogin.
func (a *ActionClient) CommitAuthor(ctx context.Context, owner, repo, sha string) (string, error) {
	return CommitAuthorLogin(ctx, a.client, owner, repo, sha)
}
