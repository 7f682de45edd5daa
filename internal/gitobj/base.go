package gitobj

import (
	"context"
	"fmt"
	"strings"
)

// TopLevel returns the absolute path of the repository's working tree.
func (r *Repo) TopLevel(ctx context.Context) (string, error) {
	out, err := r.git(ctx, nil, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", fmt.Errorf("top level: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// MergeBase returns the best common ancestor of commits a and b (both
// full SHAs, as Resolve returns them).
func (r *Repo) MergeBase(ctx context.Context, a, b string) (string, error) {
	if strings.HasPrefix(a, "-") || strings.HasPrefix(b, "-") {
		return "", fmt.Errorf("merge base of %q and %q: %w", a, b, ErrUnknownCommit)
	}
	out, err := r.git(ctx, nil, "merge-base", a, b)
	if err != nil {
		return "", fmt.Errorf("merge base of %s and %s: %w", a, b, err)
	}
	return strings.TrimSpace(string(out)), nil
}
