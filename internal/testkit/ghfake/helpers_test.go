package ghfake_test

import (
	"context"
	"crypto/rsa"
	"errors"
	"net/http"
	"sync"
	"testing"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-github/v62/github"
)

var (
	keyOnce sync.Once
	key     *rsa.PrivateKey
)

// testKey shares one RSA key across the package's tests (generation is slow).
func testKey() *rsa.PrivateKey {
	keyOnce.Do(func() { key = ghfake.NewAppKey() })
	return key
}

// client builds the project's own go-github client against the fake.
func client(t *testing.T, f *ghfake.Fake, token string) *github.Client {
	t.Helper()
	c, err := gh.NewTokenClient(f.URL(), token, nil)
	if err != nil {
		t.Fatalf("NewTokenClient: %v", err)
	}
	return c
}

// status extracts the HTTP status of a go-github error (0 if none).
func status(err error) int {
	var er *github.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		return er.Response.StatusCode
	}
	var rl *github.RateLimitError
	if errors.As(err, &rl) {
		return http.StatusForbidden
	}
	var ab *github.AbuseRateLimitError
	if errors.As(err, &ab) {
		return http.StatusForbidden
	}
	return 0
}

// installed sets up the usual story: a repo and an App installed on it
// with checks/contents/issues/pull_requests write.
func installed(t *testing.T) (*ghfake.Fake, *ghfake.Repo, *ghfake.App, *github.Client) {
	t.Helper()
	f, repo, app, tok := installedToken(t)
	return f, repo, app, client(t, f, tok)
}

// installedToken is installed with the installation token itself.
func installedToken(t *testing.T) (*ghfake.Fake, *ghfake.Repo, *ghfake.App, string) {
	t.Helper()
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	app := f.App(42, testKey())
	inst := app.Install("acme", ghfake.Permissions{
		"checks": "write", "contents": "write", "issues": "write", "pull_requests": "write", "actions": "read", "statuses": "read",
	})
	return f, repo, app, inst.Token()
}

var ctx = context.Background()
