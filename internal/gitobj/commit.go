package gitobj

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strings"
)

// Parents returns the parents a commit object records, in order, read
// from the object itself (git cat-file commit): in a shallow clone, where
// git's history commands show a boundary commit without parents, the
// recorded parents are still returned.
func (r *Repo) Parents(ctx context.Context, commit string) ([]string, error) {
	if commit == "" || strings.HasPrefix(commit, "-") {
		return nil, fmt.Errorf("read commit %q: %w", commit, ErrUnknownCommit)
	}
	out, err := r.git(ctx, nil, "cat-file", "commit", commit)
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", commit, err)
	}
	return ParseParents(out), nil
}

// ParseParents returns the "parent" lines of a raw commit object's header
// (which ends at the first empty line).
func ParseParents(raw []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 0, 4096), len(raw)+1)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			break
		}
		if sha, ok := strings.CutPrefix(line, "parent "); ok {
			out = append(out, sha)
		}
	}
	return out
}
