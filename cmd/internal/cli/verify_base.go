package cli

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/aepgate/aepgate/internal/gitobj"
	"github.com/aepgate/aepgate/protocol/rundoc"
)

// defaultBranches are tried, in order, for the default --base: the
// remote's default branch, then the usual local names.
var defaultBranches = []string{"origin/HEAD", "main", "master"}

// baseGuide reads the execution guide of run folder dir as the base
// commit records it: rev when given, else the merge base of HEAD with the
// default branch (defaultBranches). It returns the guide (nil when the
// base has none) and the base's description for the report. Outside a git
// repository, or when no base can be found, it fails: the Verify commands
// are never taken from the folder's own guide.
func baseGuide(ctx context.Context, dir, rev string) (*rundoc.Guide, string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, "", err
	}
	repo, err := gitobj.Open(ctx, abs)
	if err != nil {
		return nil, "", fmt.Errorf("%w; the Verify commands are read from the base commit's execution guide, never from the folder's own, so run verify --rerun inside the repository", err)
	}
	sha, where, err := baseCommit(ctx, repo, rev)
	if err != nil {
		return nil, "", err
	}
	rel, err := repoPath(ctx, repo, abs)
	if err != nil {
		return nil, "", err
	}
	name := path.Join(rel, rundoc.GuideFile)
	fs, err := repo.Files(ctx, sha, []string{name})
	if err != nil {
		return nil, "", err
	}
	if len(fs) != 1 || fs[0].Missing || fs[0].Symlink {
		return nil, where, nil
	}
	return rundoc.ParseGuide(name, string(fs[0].Content)), where, nil
}

// baseCommit resolves --base: rev when set, else the merge base of HEAD
// with the first of defaultBranches that exists.
func baseCommit(ctx context.Context, repo *gitobj.Repo, rev string) (sha, where string, err error) {
	if rev != "" {
		sha, err := repo.Resolve(ctx, rev)
		if err != nil {
			return "", "", fmt.Errorf("--base: %w", err)
		}
		return sha, fmt.Sprintf("%s (%s)", rev, shortSHA(sha)), nil
	}
	head, err := repo.Resolve(ctx, "HEAD")
	if err != nil {
		return "", "", fmt.Errorf("HEAD: %w", err)
	}
	for _, b := range defaultBranches {
		tip, err := repo.Resolve(ctx, b)
		if errors.Is(err, gitobj.ErrUnknownCommit) {
			continue
		}
		if err != nil {
			return "", "", err
		}
		mb, err := repo.MergeBase(ctx, head, tip)
		if err != nil {
			return "", "", err
		}
		return mb, fmt.Sprintf("the merge base of HEAD and %s (%s)", b, shortSHA(mb)), nil
	}
	return "", "", fmt.Errorf("no base commit: none of %s exists; pass --base <rev>, the commit whose execution guide states the Verify commands (e.g. the pull request's base)", strings.Join(defaultBranches, ", "))
}

// repoPath is abs relative to the repository's top level, slash-separated.
func repoPath(ctx context.Context, repo *gitobj.Repo, abs string) (string, error) {
	top, err := repo.TopLevel(ctx)
	if err != nil {
		return "", err
	}
	if t, err := filepath.EvalSymlinks(top); err == nil {
		top = t
	}
	if a, err := filepath.EvalSymlinks(abs); err == nil {
		abs = a
	}
	rel, err := filepath.Rel(top, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", fmt.Errorf("%s is outside the repository at %s", abs, top)
	}
	return filepath.ToSlash(rel), nil
}

// shortSHA is the first 12 characters of a SHA.
func shortSHA(sha string) string { return sha[:min(12, len(sha))] }
