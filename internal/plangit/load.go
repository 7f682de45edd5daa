package plangit

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/aepgate/aepgate/protocol/plans"
)

// Load reads the plan folder dir (repository-relative, "plans/<slug>") at
// commit. A missing folder gives a Plan with a nil Progress; a file that
// does not parse gives plans.Errors (joined with the others) as the error.
func (r *Repo) Load(ctx context.Context, commit, dir string) (plans.Plan, error) {
	p := plans.Plan{Dir: dir, States: map[int]*plans.State{}, Reviews: map[int]*plans.Review{}}
	out, err := r.git(ctx, "ls-tree", "-r", "-z", "--name-only", "--full-tree", commit, "--", dir+"/")
	if err != nil {
		return p, fmt.Errorf("list %s at %s: %w", dir, commit, err)
	}
	var paths []string
	for _, f := range split(out) {
		rel := strings.TrimPrefix(f, dir+"/")
		if plans.Reads(rel) {
			paths = append(paths, f)
		}
	}
	files, err := r.objs.Files(ctx, commit, paths)
	if err != nil {
		return p, fmt.Errorf("read %s at %s: %w", dir, commit, err)
	}
	var errs plans.Errors
	for _, f := range files {
		if err := p.Add(f.Path, f.Content); err != nil {
			var es plans.Errors
			if !errors.As(err, &es) {
				return p, err
			}
			errs = append(errs, es...)
		}
	}
	if len(errs) > 0 {
		return p, errs
	}
	return p, nil
}

// Folders lists the plan folders (plans/<slug> holding a progress.json) at
// commit.
func (r *Repo) Folders(ctx context.Context, commit string) ([]string, error) {
	out, err := r.git(ctx, "ls-tree", "-r", "-z", "--name-only", "--full-tree", commit, "--", "plans/")
	if err != nil {
		return nil, fmt.Errorf("list plans at %s: %w", commit, err)
	}
	var dirs []string
	for _, f := range split(out) {
		if d, name := path.Split(f); name == "progress.json" && strings.Count(f, "/") == 2 {
			dirs = append(dirs, strings.TrimSuffix(d, "/"))
		}
	}
	return dirs, nil
}
