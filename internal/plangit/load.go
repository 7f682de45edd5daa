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
	out, err := r.git(ctx, "ls-tree", "-r", "-z", "--name-only", "--full-tree", commit, "--", dir+"/")
	if err != nil {
		p, _ := Build(dir, nil)
		return p, fmt.Errorf("list %s at %s: %w", dir, commit, err)
	}
	var paths []string
	for _, f := range split(out) {
		if PlanFile(dir, f) {
			paths = append(paths, f)
		}
	}
	files, err := r.objs.Files(ctx, commit, paths)
	if err != nil {
		p, _ := Build(dir, nil)
		return p, fmt.Errorf("read %s at %s: %w", dir, commit, err)
	}
	contents := make([]File, 0, len(files))
	for _, f := range files {
		contents = append(contents, File{Path: f.Path, Content: f.Content})
	}
	return Build(dir, contents)
}

// File is one file of a plan folder, however it was read.
type File struct {
	Path    string
	Content []byte
}

// PlanFile reports whether the repository-relative path f is a file of
// the plan folder dir that Build reads: progress.json, HANDOFF.md, a state
// or a review file.
func PlanFile(dir, f string) bool {
	rel, ok := strings.CutPrefix(f, dir+"/")
	if !ok {
		return false
	}
	return plans.Reads(rel)
}

// Build parses the files of plan folder dir, in order, into a Plan. No
// files give a Plan with a nil Progress; a file that does not parse gives
// plans.Errors (joined with the others) as the error.
func Build(dir string, files []File) (plans.Plan, error) {
	p := plans.Plan{Dir: dir, States: map[int]*plans.State{}, Reviews: map[int]*plans.Review{}}
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
