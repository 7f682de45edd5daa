package plangit

import (
	"context"
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/plans"
)

// History returns the commits of base..head, oldest first, each with the
// paths it changes against its first parent, and the paths changed from
// base to head.
func (r *Repo) History(ctx context.Context, base, head string) ([]plans.Commit, []string, error) {
	out, err := r.git(ctx, "rev-list", "--reverse", base+".."+head)
	if err != nil {
		return nil, nil, fmt.Errorf("list commits %s..%s: %w", base, head, err)
	}
	var commits []plans.Commit
	for _, sha := range strings.Fields(out) {
		files, err := r.git(ctx, "diff-tree", "-r", "-z", "--name-only", "--no-commit-id", "--no-renames", "-m", "--first-parent", "--root", sha)
		if err != nil {
			return nil, nil, fmt.Errorf("files of %s: %w", sha, err)
		}
		commits = append(commits, plans.Commit{SHA: sha, Files: split(files)})
	}
	changed, err := r.git(ctx, "diff", "--name-only", "-z", "--no-renames", base, head, "--")
	if err != nil {
		return nil, nil, fmt.Errorf("diff %s %s: %w", base, head, err)
	}
	return commits, split(changed), nil
}
