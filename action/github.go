package action

import (
	"context"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/plans"
	"github.com/aepgate/aepgate/protocol/releaserules"
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

// CommitProofs tells what GitHub verified of commits' signatures.
type CommitProofs interface {
	// CommitProofs returns what GitHub says of each commit in shas in
	// owner/repo (its signature, the account linked to its author
	// e-mail), in as few reads as it can.
	CommitProofs(ctx context.Context, owner, repo string, shas []string) (map[string]gh.CommitProof, error)
}

// TeamReader lists a team's members.
type TeamReader interface {
	// TeamMembers returns the logins of team slug's members in org; an
	// error wrapping gh.ErrTeamForbidden or gh.ErrTeamHidden when the
	// token may not read them or sees no such team.
	TeamMembers(ctx context.Context, org, slug string) ([]string, error)
}

// HistoryReader reads what a shallow clone lacks of a pull request.
type HistoryReader interface {
	// PullHistory returns the commits base...head in owner/repo, oldest
	// first, each with the paths it changes, and the paths changed from
	// the merge base to head.
	PullHistory(ctx context.Context, owner, repo, base, head string) ([]plans.Commit, []string, error)
	// ListDir returns the paths of the files directly in dir at ref; nil
	// when dir does not exist there.
	ListDir(ctx context.Context, owner, repo, dir, ref string) ([]string, error)
}

// PullReviews lists a pull request's reviews.
type PullReviews interface {
	// PullReviews returns pull request n's reviews, oldest first; complete
	// is false when GitHub may hold more than it lists.
	PullReviews(ctx context.Context, owner, repo string, n int) (reviews []gh.PullReview, complete bool, err error)
}

// ReleaseVerifier checks release closure through the API, read-only.
type ReleaseVerifier interface {
	// VerifyRelease checks opts.Tag in opts.Repo; its only error is a
	// cancelled context.
	VerifyRelease(ctx context.Context, opts gh.ReleaseOptions) (releaserules.Result, error)
}

// GitHub is what the step may do on GitHub with its token. A nil member is
// a capability the step does without: no Checks reports through workflow
// annotations and the job summary, no Files reads the config from the
// workspace, no Pulls leaves the report's FILES unchecked, no Releases
// refuses the release check, no Commits proves no author of the
// compliance log's verdict lines, no Teams reads no auditor team, no
// History judges aep/plans from the workspace's git alone, no Blames
// blames the compliance log with the workspace's git alone, no Reviews
// reports every change to the auditor's part of run documents as needing
// an auditor's approval.
type GitHub struct {
	Checks   Publisher
	Files    FileReader
	Pulls    PullFiles
	Releases ReleaseVerifier
	Commits  CommitProofs
	Teams    TeamReader
	History  HistoryReader
	Blames   BlameReader
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
	_ CommitProofs    = (*gh.ActionClient)(nil)
	_ TeamReader      = (*gh.ActionClient)(nil)
	_ HistoryReader   = (*gh.ActionClient)(nil)
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
		return GitHub{Checks: c, Files: c, Pulls: c, Releases: c, Commits: c, Teams: c, History: c, Blames: c, Reviews: c}, nil
	}
}
