package action

import (
	"context"
	"fmt"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/gitblame"
	"github.com/aepgate/aepgate/protocol/gitsha"
)

// BlameReader reads GitHub's blame of a file at a commit.
type BlameReader interface {
	// Blame returns, for each 1-based line of path at commit sha in
	// owner/repo, the commit that introduced it and its author's e-mail.
	Blame(ctx context.Context, owner, repo, sha, path string) (map[int]gh.BlameLine, error)
}

var _ BlameReader = (*gh.ActionClient)(nil)

// blamer tells who introduced each line of a file at a commit.
type blamer interface {
	blame(ctx context.Context, rev, file string) (map[int]gitblame.Line, error)
}

// gitBlamer blames with git in the workspace.
type gitBlamer struct{ dir string }

func (b gitBlamer) blame(ctx context.Context, rev, file string) (map[int]gitblame.Line, error) {
	return gitblame.Blame(ctx, b.dir, rev, file)
}

// apiBlamer blames with GitHub's GraphQL blame.
type apiBlamer struct {
	api         BlameReader
	owner, repo string
}

func (b apiBlamer) blame(ctx context.Context, rev, file string) (map[int]gitblame.Line, error) {
	lines, err := b.api.Blame(ctx, b.owner, b.repo, rev, file)
	if err != nil {
		return nil, err
	}
	out := make(map[int]gitblame.Line, len(lines))
	for n, l := range lines {
		out[n] = gitblame.Line{Commit: l.Commit, AuthorMail: l.AuthorMail}
	}
	return out, nil
}

// blamer is git blame in the workspace when it holds the pull request's
// history (Options.LocalHistory), else GitHub's blame through the token.
// Without either the error wraps errNoHistory and says which input is
// missing.
func (r *runner) blamer(ctx context.Context) (blamer, error) {
	local, err := r.o.LocalHistory(ctx, r.ev)
	if err == nil && local != nil {
		return gitBlamer{dir: r.ev.Workspace}, nil
	}
	if r.api.Blames != nil {
		return apiBlamer{api: r.api.Blames, owner: r.ev.Owner, repo: r.ev.Repo}, nil
	}
	if err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("%w: the head %s is not in the workspace (a shallow clone) to blame, and no token was given to read GitHub's blame; give the token input (contents: read) or check out with fetch-depth: 0",
		errNoHistory, gitsha.Short(r.ev.PR.HeadSHA))
}

// blame is who introduced each line of file at the pull request's head.
func (r *runner) blame(ctx context.Context, file string) (map[int]gitblame.Line, error) {
	b, err := r.blamer(ctx)
	if err != nil {
		return nil, err
	}
	return b.blame(ctx, r.ev.PR.HeadSHA, file)
}
