package action

import (
	"context"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/release"
)

// Publisher writes one check run and returns its ID.
type Publisher interface {
	// Publish creates or updates the run named run.Name at run.HeadSHA in
	// owner/repo. An error wrapping gh.ErrCheckForbidden means the token
	// may not write check runs.
	Publish(ctx context.Context, owner, repo string, run checks.Run) (int64, error)
}

// FileReader reads a repository file at a commit.
type FileReader interface {
	// ReadFile returns the file at path in owner/repo at ref. found is
	// false, with a nil error, only when the file does not exist at ref.
	ReadFile(ctx context.Context, owner, repo, path, ref string) (data []byte, found bool, err error)
}

// PullFiles lists a pull request's changed files.
type PullFiles interface {
	// PullFiles returns the paths pull request n in owner/repo changes;
	// complete is false when GitHub may hold more than it lists.
	PullFiles(ctx context.Context, owner, repo string, n int) (paths []string, complete bool, err error)
}

// PullReviews lists a pull request's reviews.
type PullReviews interface {
	// PullReviews returns pull request n's reviews, oldest first; complete
	// is false when GitHub may hold more than it lists.
	PullReviews(ctx context.Context, owner, repo string, n int) (reviews []gh.PullReview, complete bool, err error)
}

// CommitAuthors tells who wrote a commit.
type CommitAuthors interface {
	// CommitAuthor returns the GitHub login linked to the author of commit
	// sha in owner/repo; "" when the e-mail is linked to no account.
	CommitAuthor(ctx context.Context, owner, repo, sha string) (string, error)
}

// ReleaseVerifier checks release closure through the API, read-only.
type ReleaseVerifier interface {
	// VerifyRelease checks opts.Tag in opts.Repo; its only error is a
	// cancelled context.
	VerifyRelease(ctx context.Context, opts gh.ReleaseOptions) (release.Result, error)
}

// GitHub is what the step may do on GitHub with its token. A nil member is
// a capability the step does without: no Checks reports through workflow
// annotations and the job summary, no Files reads the config from the
// workspace, no Pulls leaves the report's FILES unchecked, no Releases
// refuses the release check, no Commits tells only GitHub noreply authors
// of the compliance log's verdict lines, no Reviews reports every change to
// the auditor's part of run documents as needing an auditor's approval.
type GitHub struct {
	Checks   Publisher
	Files    FileReader
	Pulls    PullFiles
	Releases ReleaseVerifier
	Commits  CommitAuthors
	Reviews  PullReviews
}

// Connector opens GitHub for the step's token at apiURL, the workflow's
// GITHUB_API_URL. An error is reported as a bad input.
type Connector func(apiURL, token string) (GitHub, error)

var (
	_ Publisher       = (*gh.ActionClient)(nil)
	_ FileReader      = (*gh.ActionClient)(nil)
	_ PullFiles       = (*gh.ActionClient)(nil)
	_ ReleaseVerifier = (*gh.ActionClient)(nil)
	_ CommitAuthors   = (*gh.ActionClient)(nil)
	_ PullReviews     = (*gh.ActionClient)(nil)
)

// NewConnector returns the Connector that opens one gh.ActionClient with o
// for every capability.
func NewConnector(o gh.ActionClientOptions) Connector {
	return func(apiURL, token string) (GitHub, error) {
		c, err := gh.NewActionClient(apiURL, token, o)
		if err != nil {
			return GitHub{}, err
		}
		return GitHub{Checks: c, Files: c, Pulls: c, Releases: c, Commits: c, Reviews: c}, nil
	}
}
