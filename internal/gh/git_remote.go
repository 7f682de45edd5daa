package gh

import (
	"context"
	"net/url"
	"strings"
)

// GitRemote is where git fetches owner/repo from for installation id: the
// https URL beside the REST API (GitURL) and an installation token
// (AppAuth.Token, cached as the API's).
func (c *Clients) GitRemote(ctx context.Context, id int64, owner, repo string) (remote, token string, err error) {
	in, err := c.Installation(id)
	if err != nil {
		return "", "", err
	}
	token, err = c.auth.Token(ctx, id)
	if err != nil {
		return "", "", err
	}
	return GitURL(in.rest.BaseURL, owner, repo), token, nil
}

// GitURL is owner/repo's git URL beside the REST base URL rest:
// github.com's for api.github.com, a GHES host's for its /api/v3/, the
// server's root otherwise.
func GitURL(rest *url.URL, owner, repo string) string {
	u := url.URL{Scheme: rest.Scheme, Host: rest.Host, Path: rest.Path}
	switch {
	case u.Host == "api.github.com":
		u.Host, u.Path = "github.com", "/"
	case strings.HasSuffix(u.Path, "/api/v3/"):
		u.Path = strings.TrimSuffix(u.Path, "api/v3/")
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + "/" + url.PathEscape(owner) + "/" + url.PathEscape(repo) + ".git"
	return u.String()
}
