// Package plangit reads executor plan folders (docs/plans.md) and a
// branch's history from a git repository's objects, never from the working
// tree, and hands them to protocol/plans as plain values.
package plangit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/aepgate/aepgate/internal/gitobj"
	"github.com/aepgate/aepgate/protocol/cmdenv"
)

// Repo is a git repository read for plan checks.
type Repo struct {
	dir  string
	objs *gitobj.Repo
}

// Open returns the repository dir belongs to.
func Open(ctx context.Context, dir string) (*Repo, error) {
	objs, err := gitobj.Open(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("plans: %w", err)
	}
	return &Repo{dir: dir, objs: objs}, nil
}

// Resolve returns the full SHA of the commit rev names.
func (r *Repo) Resolve(ctx context.Context, rev string) (string, error) {
	return r.objs.Resolve(ctx, rev)
}

// Branch returns the checked-out branch's short name; empty when HEAD is
// detached.
func (r *Repo) Branch(ctx context.Context) string {
	out, err := r.git(ctx, "symbolic-ref", "--short", "-q", "HEAD")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(out)
}

// DefaultBase returns the merge base of head with the first of origin/HEAD,
// origin/main, origin/master, main and master that exists.
func (r *Repo) DefaultBase(ctx context.Context, head string) (string, error) {
	for _, ref := range []string{"origin/HEAD", "origin/main", "origin/master", "main", "master"} {
		sha, err := r.objs.Resolve(ctx, ref)
		if err != nil {
			continue
		}
		out, err := r.git(ctx, "merge-base", sha, head)
		if err != nil {
			return "", fmt.Errorf("merge base with %s: %w", ref, err)
		}
		return strings.TrimSpace(out), nil
	}
	return "", errors.New("no default branch found (tried origin/HEAD, origin/main, origin/master, main, master): pass --base")
}

// git runs git in the repository without optional locks and returns its
// standard output; a failure carries git's first line of error output.
func (r *Repo) git(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"--no-optional-locks", "-C", r.dir}, args...)...)
	cmd.Env = cmdenv.Scrub(os.Environ())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n"); msg != "" {
			return "", fmt.Errorf("git %s: %s", args[0], msg)
		}
		return "", fmt.Errorf("git %s: %w", args[0], err)
	}
	return stdout.String(), nil
}

// split cuts NUL-separated git output into its non-empty fields.
func split(out string) []string {
	var s []string
	for _, f := range strings.Split(out, "\x00") {
		if f != "" {
			s = append(s, f)
		}
	}
	return s
}

// Shallow reports whether the repository is a shallow clone, whose
// history stops at commits git shows without their parents.
func (r *Repo) Shallow(ctx context.Context) (bool, error) {
	out, err := r.git(ctx, "rev-parse", "--is-shallow-repository")
	if err != nil {
		return false, err
	}
	return strings.TrimSpace(out) == "true", nil
}
