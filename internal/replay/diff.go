package replay

import (
	"context"
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/coverage"
)

// differences lists the paths where tree b differs from tree a (no rename
// detection: a rename is a deletion and an addition), with the hunks of
// the first coverage.MaxHunkPaths of them.
func (r *Repo) differences(ctx context.Context, a, b string) ([]coverage.PathDiff, error) {
	out, _, err := r.git(ctx, "diff-tree", "-r", "-z", "--no-renames", "--name-status", a, b)
	if err != nil {
		return nil, err
	}
	diffs, err := ParseNameStatus(out)
	if err != nil {
		return nil, problem("differences of %s and %s: %v", a, b, err)
	}
	for i := range diffs {
		if i >= coverage.MaxHunkPaths {
			break
		}
		if diffs[i].Hunks, diffs[i].Truncated, err = r.hunks(ctx, a, b, diffs[i].Path); err != nil {
			return nil, err
		}
	}
	return diffs, nil
}

// hunks is path's unified diff from tree a to tree b, from its first hunk
// header (or git's "Binary files … differ"), cut at coverage.MaxHunkBytes.
func (r *Repo) hunks(ctx context.Context, a, b, path string) (string, bool, error) {
	out, _, err := r.git(ctx, "--literal-pathspecs", "diff-tree", "-p", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", "-U1", a, b, "--", path)
	if err != nil {
		return "", false, err
	}
	s := string(out)
	if i := strings.Index(s, "\n@@ "); i >= 0 {
		s = s[i+1:]
	} else if i := strings.Index(s, "\nBinary files "); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > coverage.MaxHunkBytes {
		return strings.ToValidUTF8(s[:coverage.MaxHunkBytes], ""), true, nil
	}
	return s, false, nil
}

// ParseNameStatus reads `git diff-tree -r -z --no-renames --name-status`:
// "<status> NUL <path> NUL" pairs (without rename detection every status
// names one path).
func ParseNameStatus(out []byte) ([]coverage.PathDiff, error) {
	if len(out) == 0 {
		return nil, nil
	}
	f := strings.Split(string(out), "\x00")
	if f[len(f)-1] != "" || len(f)%2 != 1 {
		return nil, fmt.Errorf("name-status: %d fields, want NUL-terminated pairs", len(f)-1)
	}
	var diffs []coverage.PathDiff
	for i := 0; i+1 < len(f); i += 2 {
		st, p := f[i], f[i+1]
		if len(st) != 1 || !strings.Contains("ADMT", st) || p == "" {
			return nil, fmt.Errorf("name-status: entry %q %q", st, p)
		}
		diffs = append(diffs, coverage.PathDiff{Path: p, Status: st})
	}
	return diffs, nil
}
