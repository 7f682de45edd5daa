// Package gh is the one place that speaks the GitHub API: App auth, clients,
// retries, rate limits, conditional requests and GraphQL. It builds plain
// snapshots for the pure packages and writes what they decide.
package gh

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/google/go-github/v62/github"
)

// DefaultBaseURL is github.com's REST root.
const DefaultBaseURL = "https://api.github.com/"

// tokenTransport adds a bearer token to every request it carries.
type tokenTransport struct {
	token string
	base  http.RoundTripper
}

func (t *tokenTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	r.Header.Set("Authorization", "Bearer "+t.token)
	return t.base.RoundTrip(r)
}

// NewTokenClient returns a go-github client that authenticates with token
// (a GITHUB_TOKEN, an installation token or a personal token) against
// baseURL. An empty baseURL means github.com; any other value is treated as
// a GitHub Enterprise Server (or test server) root, with uploads beside it.
// hc may be nil; its transport, when set, carries the requests.
func NewTokenClient(baseURL, token string, hc *http.Client) (*github.Client, error) {
	if token == "" {
		return nil, fmt.Errorf("github client: empty token")
	}
	base := http.DefaultTransport
	if hc != nil && hc.Transport != nil {
		base = hc.Transport
	}
	c := &http.Client{Transport: &tokenTransport{token: token, base: base}}
	if hc != nil {
		c.Timeout = hc.Timeout
		c.CheckRedirect = hc.CheckRedirect
	}
	return NewClient(baseURL, c)
}

// NewClient returns a go-github client over hc (which carries the
// authentication) for baseURL; see NewTokenClient for the URL rules.
func NewClient(baseURL string, hc *http.Client) (*github.Client, error) {
	client := github.NewClient(hc)
	if baseURL == "" || baseURL == DefaultBaseURL {
		return client, nil
	}
	u, err := url.Parse(baseURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("github client: base URL %q is not an absolute URL", baseURL)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	if u.Path == "/" {
		// A bare GHES host: go-github adds api/v3/ and api/uploads/.
		c, err := client.WithEnterpriseURLs(u.String(), u.String())
		if err != nil {
			return nil, fmt.Errorf("github client: %w", err)
		}
		return c, nil
	}
	// A URL that names its API root (GHES's …/api/v3/, or a test server) is
	// used as given; uploads live beside a GHES root, and on the same root
	// otherwise.
	client.BaseURL = u
	up := *u
	if strings.HasSuffix(up.Path, "/api/v3/") {
		up.Path = strings.TrimSuffix(up.Path, "v3/") + "uploads/"
	}
	client.UploadURL = &up
	c := client
	return c, nil
}
