package gh

import (
	"context"
	"fmt"

	"github.com/google/go-github/v62/github"
)

// MaxPullFiles is the most files GitHub lists for one pull request ("Responses
// include a maximum of 3000 files"); a list that long may be cut short.
const MaxPullFiles = 3000

// ListPullFiles returns the paths pull request n in owner/repo changes, 100
// a page. complete is false when GitHub may hold more than it lists (the
// list reached MaxPullFiles).
//
// GitHub API docs: https://docs.github.com/rest/pulls/pulls#list-pull-requests-files
func ListPullFiles(ctx context.Context, c *github.Client, owner, repo string, n int) (paths []string, complete bool, err error) {
	opt := &github.ListOptions{PerPage: 100}
	for {
		files, resp, err := c.PullRequests.ListFiles(ctx, owner, repo, n, opt)
		if err != nil {
			return nil, false, fmt.Errorf("list the files of pull request #%d (the token needs pull-requests: read): %w", n, err)
		}
		for _, f := range files {
			paths = append(paths, f.GetFilename())
		}
		if resp.NextPage == 0 || len(paths) >= MaxPullFiles {
			return paths, len(paths) < MaxPullFiles, nil
		}
		opt.Page = resp.NextPage
	}
}

// PullFiles returns the paths pull request n changes; see ListPullFiles.
func (a *ActionClient) PullFiles(ctx context.Context, owner, repo string, n int) (paths []string, complete bool, err error) {
	return ListPullFiles(ctx, a.client, owner, repo, n)
}
