package gh

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/google/go-github/v62/github"
)

// NewActionsClient returns a go-github client for a workflow step: token is
// the step's token (GITHUB_TOKEN or an App token) and apiURL is the
// workflow's GITHUB_API_URL, which always names the REST root
// (https://api.github.com, or https://ghes.example/api/v3 on GHES), so it is
// used as given. Uploads share the root. hc may be nil.
func NewActionsClient(apiURL, token string, hc *http.Client) (*github.Client, error) {
	if token == "" {
		return nil, errors.New("github client: empty token")
	}
	if apiURL == "" || strings.TrimSuffix(apiURL, "/")+"/" == DefaultBaseURL {
		return NewTokenClient("", token, hc)
	}
	u, err := url.Parse(apiURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("github client: API URL %q is not an absolute URL", apiURL)
	}
	c, err := NewTokenClient("", token, hc)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	up := *u
	c.BaseURL, c.UploadURL = u, &up
	return c, nil
}

// ReadRepoFile returns the file at path in owner/repo at ref through the
// contents API. found is false (and err nil) only when the file does not
// exist at ref. GitHub also answers 404 when the token may not read the
// repository's contents, so a 404 is confirmed by listing the root folder at
// ref: when that fails too, ReadRepoFile returns an error (fail closed: a
// token without contents: read must not make a policy file look absent).
//
// https://docs.github.com/rest/repos/contents#get-repository-content
func ReadRepoFile(ctx context.Context, c *github.Client, owner, repo, path, ref string) (data []byte, found bool, err error) {
	return readRepoFile(ctx, c, owner, repo, path, ref, listRoot)
}

// absenceCheck decides what a 404 on a file at ref means: nil when the
// file is absent, an error when the repository's contents cannot be read.
type absenceCheck func(ctx context.Context, c *github.Client, owner, repo, ref string) error

// listRoot is the absenceCheck ReadRepoFile uses: the root folder at ref
// must be readable.
func listRoot(ctx context.Context, c *github.Client, owner, repo, ref string) error {
	if _, _, _, err := c.Repositories.GetContents(ctx, owner, repo, "", &github.RepositoryContentGetOptions{Ref: ref}); err != nil {
		return classify("list the root folder", err)
	}
	return nil
}

// readRepoFile is ReadRepoFile with the check behind a 404 given.
func readRepoFile(ctx context.Context, c *github.Client, owner, repo, path, ref string, absent absenceCheck) ([]byte, bool, error) {
	file, _, resp, err := c.Repositories.GetContents(ctx, owner, repo, path, &github.RepositoryContentGetOptions{Ref: ref})
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusNotFound {
			if cerr := absent(ctx, c, owner, repo, ref); cerr != nil {
				return nil, false, fmt.Errorf("read %s at %s: cannot read the repository's contents at that commit (the token needs contents: read): %w", path, ref, cerr)
			}
			return nil, false, nil
		}
		return nil, false, classify(fmt.Sprintf("read %s at %s", path, ref), err)
	}
	if file == nil {
		return nil, false, fmt.Errorf("read %s at %s: a directory, not a file", path, ref)
	}
	text, err := file.GetContent()
	if err != nil {
		return nil, false, fmt.Errorf("read %s at %s: %w", path, ref, err)
	}
	return []byte(text), true, nil
}
