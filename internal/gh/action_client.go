package gh

import (
	"context"
	"net/http"
	"time"

	"github.com/google/go-github/v62/github"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/releaserules"
)

// ActionClient is a workflow step's GitHub through the step's token: it
// writes check runs, reads a file at a commit, reads commit signatures and
// team members, and verifies release closure, all over one go-github
// client. Its check-run writes are serial, so it is
// not safe for concurrent use.
type ActionClient struct {
	client *github.Client
	pub    *CheckPublisher
	// hc and graphqlURL carry GraphQL queries with client's token.
	hc         *http.Client
	graphqlURL string
}

// ActionClientOptions tune NewActionClient.
type ActionClientOptions struct {
	// HTTPClient carries the requests; nil means http.DefaultTransport.
	HTTPClient *http.Client
	// WritePause separates check-run writes: DefaultWritePause in
	// production, 0 in tests.
	WritePause time.Duration
}

// NewActionClient returns the client for token against apiURL, the
// workflow's GITHUB_API_URL (see NewActionsClient for the URL rules). The
// writing App is not known to a workflow token, so earlier check runs are
// looked up across all apps (CheckPublisher.AppID 0).
func NewActionClient(apiURL, token string, o ActionClientOptions) (*ActionClient, error) {
	c, err := NewActionsClient(apiURL, token, o.HTTPClient)
	if err != nil {
		return nil, err
	}
	p := NewCheckPublisher(c, 0)
	p.WritePause = o.WritePause
	return &ActionClient{client: c, pub: p, hc: c.Client(), graphqlURL: GraphQLURL(c.BaseURL)}, nil
}

// Publish creates or updates the check run for run; see
// CheckPublisher.Publish.
func (a *ActionClient) Publish(ctx context.Context, owner, repo string, run checks.Run) (int64, error) {
	return a.pub.Publish(ctx, owner, repo, run)
}

// ReadFile returns the file at path in owner/repo at ref; see ReadRepoFile.
func (a *ActionClient) ReadFile(ctx context.Context, owner, repo, path, ref string) (data []byte, found bool, err error) {
	return ReadRepoFile(ctx, a.client, owner, repo, path, ref)
}

// VerifyRelease checks release closure for opts.Tag in opts.Repo, read-only;
// see the package-level VerifyRelease.
func (a *ActionClient) VerifyRelease(ctx context.Context, opts ReleaseOptions) (releaserules.Result, error) {
	return VerifyRelease(ctx, a.client, opts)
}
