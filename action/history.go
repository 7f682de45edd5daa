package action

import (
	"context"
	"errors"
	"fmt"

	"github.com/aepgate/aepgate/internal/gitobj"
	"github.com/aepgate/aepgate/internal/plangit"
	"github.com/aepgate/aepgate/protocol/gitsha"
	"github.com/aepgate/aepgate/protocol/plans"
)

// PlanHistory is what aep/plans reads of a pull request: the history
// between its base and head, and a plan folder at a commit.
type PlanHistory interface {
	// History returns the commits base..head, oldest first, each with the
	// paths it changes, and the paths changed from base to head.
	History(ctx context.Context, base, head string) ([]plans.Commit, []string, error)
	// Load reads the plan folder dir at commit (plangit.Repo.Load).
	Load(ctx context.Context, commit, dir string) (plans.Plan, error)
}

var _ PlanHistory = (*plangit.Repo)(nil)

// errNoHistory says a check needs history the clone lacks and no token
// can read.
var errNoHistory = errors.New("history not in the workspace")

// WorkspaceHistory returns the workspace's git as ev's pull request's
// history when it holds it: a clone that is not shallow and has both the
// base and the head commit. It returns nil and no error when the clone
// lacks them (actions/checkout's default depth-1 clone of the merge
// commit): the step then reads them through the API. The error wraps
// gitobj.ErrNotRepository when the workspace is no git checkout.
func WorkspaceHistory(ctx context.Context, ev Event) (PlanHistory, error) {
	repo, err := plangit.Open(ctx, ev.Workspace)
	if err != nil {
		return nil, err
	}
	if shallow, err := repo.Shallow(ctx); err != nil || shallow {
		return nil, nil
	}
	for _, sha := range []string{ev.PR.BaseSHA, ev.PR.HeadSHA} {
		if _, err := repo.Resolve(ctx, sha); err != nil {
			return nil, nil
		}
	}
	return repo, nil
}

// planHistory is the pull request's history: the workspace's git through
// Options.LocalHistory when it holds it, else GitHub's through the token.
// Without either the error wraps errNoHistory and says which input is
// missing.
func (r *runner) planHistory(ctx context.Context) (PlanHistory, error) {
	local, err := r.o.LocalHistory(ctx, r.ev)
	if err == nil && local != nil {
		return local, nil
	}
	if r.api.History != nil && r.api.Files != nil {
		return apiHistory{api: r.api, owner: r.ev.Owner, repo: r.ev.Repo}, nil
	}
	if err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("%w: the commits %s..%s are not in the workspace (a shallow clone) and no token was given to read them from GitHub; give the token input (contents: read) or check out with fetch-depth: 0",
		errNoHistory, gitsha.Short(r.ev.PR.BaseSHA), gitsha.Short(r.ev.PR.HeadSHA))
}

// apiHistory reads the pull request's history and plan folders through
// GitHub's API.
type apiHistory struct {
	api         GitHub
	owner, repo string
}

// History returns GitHub's comparison base...head.
func (h apiHistory) History(ctx context.Context, base, head string) ([]plans.Commit, []string, error) {
	commits, changed, err := h.api.History.PullHistory(ctx, h.owner, h.repo, base, head)
	if err != nil {
		return nil, nil, fmt.Errorf("read the pull request's history from GitHub: %w", err)
	}
	return commits, changed, nil
}

// Load reads the plan folder dir at commit: its files and those of its
// state/ and phases/ folders (plans.Reads), listed and read through the
// contents API.
func (h apiHistory) Load(ctx context.Context, commit, dir string) (plans.Plan, error) {
	var files []plangit.File
	for _, d := range []string{dir, dir + "/state", dir + "/phases"} {
		paths, err := h.api.History.ListDir(ctx, h.owner, h.repo, d, commit)
		if err != nil {
			p, _ := plangit.Build(dir, nil)
			return p, fmt.Errorf("read %s at %s from GitHub: %w", dir, gitsha.Short(commit), err)
		}
		for _, f := range paths {
			if !plangit.PlanFile(dir, f) {
				continue
			}
			data, found, err := h.api.Files.ReadFile(ctx, h.owner, h.repo, f, commit)
			if err != nil || !found {
				p, _ := plangit.Build(dir, nil)
				return p, fmt.Errorf("read %s at %s from GitHub: %w", f, gitsha.Short(commit), orErr(err, "listed but not found"))
			}
			files = append(files, plangit.File{Path: f, Content: data})
		}
	}
	return plangit.Build(dir, files)
}

// orErr is err, or an error saying what when err is nil.
func orErr(err error, what string) error {
	if err != nil {
		return err
	}
	return errors.New(what)
}

// isNotRepository reports whether err says the workspace is no git
// checkout.
func isNotRepository(err error) bool { return errors.Is(err, gitobj.ErrNotRepository) }
