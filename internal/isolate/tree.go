package isolate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/aepgate/aepgate/protocol/cmdenv"
)

// source is the tree the copies are made from.
type source struct {
	root string // the directory the controls' paths are relative to
	repo string // the git top-level directory; empty outside git
	sub  string // root relative to repo
	// headers are the git config keys of extra HTTP headers the
	// repository's configuration holds (http.<url>.extraheader), where
	// actions/checkout persists the job's token.
	headers []string
	mu      sync.Mutex
}

// workCopy is one control's copy of the tree.
type workCopy struct {
	src     *source
	base    string // the directory remove deletes: holds top and backups
	top     string // the copy's top directory (a worktree, or the plain copy)
	dir     string // where the control runs: top joined with src.sub
	backups string // where negcontrol keeps its backup
	git     bool
}

// inspect finds out whether root is inside a git work tree with a HEAD.
func inspect(ctx context.Context, root string) (*source, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("isolate: %w", err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("isolate: %s is not a directory", root)
	}
	src := &source{root: abs}
	top, err := git(ctx, abs, "rev-parse", "--show-toplevel")
	if err != nil {
		return src, nil // not a git work tree: plain copies
	}
	if _, err := git(ctx, abs, "rev-parse", "--verify", "--quiet", "HEAD^{commit}"); err != nil {
		return src, nil // no commit yet: plain copies
	}
	top = strings.TrimRight(top, "\n")
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	sub, err := filepath.Rel(top, abs)
	if err != nil || strings.HasPrefix(sub, "..") {
		return src, nil
	}
	src.repo, src.sub = top, sub
	src.headers = HeaderKeys(ctx, top)
	return src, nil
}

// HeaderKeys lists the distinct http.<url>.extraheader keys the git
// configuration files that apply in repo hold (where actions/checkout
// persists the job's token); none when there are none. Keys set through
// the environment (the clearing cmdenv adds) are not listed.
func HeaderKeys(ctx context.Context, repo string) []string {
	out, err := git(ctx, repo, "config", "--show-origin", "--name-only", "-z", "--get-regexp", `^http\..*\.extraheader$`)
	if err != nil {
		return nil // git config exits 1 when no key matches
	}
	var keys []string
	fields := strings.Split(out, "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		origin, k := fields[i], fields[i+1]
		if !strings.HasPrefix(origin, "command line:") && !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// copy makes a copy named name under tmp. On error the returned copy, if
// not nil, still needs removing.
func (s *source) copy(ctx context.Context, tmp, name string) (*workCopy, error) {
	return s.copyWith(ctx, tmp, name, placeInside)
}

// copyWith is copy laying uncommitted files into a worktree with place
// (copy uses placeInside; the negative-control test passes plain mirroring).
func (s *source) copyWith(ctx context.Context, tmp, name string, place placer) (*workCopy, error) {
	base := filepath.Join(tmp, name)
	if err := os.MkdirAll(filepath.Join(base, "backup"), 0o700); err != nil {
		return nil, err
	}
	c := &workCopy{src: s, base: base, top: filepath.Join(base, "tree"), backups: filepath.Join(base, "backup")}
	if s.repo == "" {
		c.dir = c.top
		return c, copyTree(s.root, c.top, tmp)
	}
	c.git = true
	c.dir = filepath.Join(c.top, s.sub)
	s.mu.Lock()
	// Hooks are off: a post-checkout hook could write to the original tree.
	_, err := git(ctx, s.repo, "-c", "core.hooksPath="+os.DevNull, "worktree", "add", "--detach", "--quiet", c.top, "HEAD")
	s.mu.Unlock()
	if err != nil {
		return c, err
	}
	return c, s.overlay(ctx, c.top, place)
}

// overlay copies the uncommitted changes (staged or not, deletions
// included) and the untracked files that are not ignored into a worktree.
func (s *source) overlay(ctx context.Context, top string, place placer) error {
	changed, err := git(ctx, s.repo, "diff", "--name-only", "--no-renames", "-z", "HEAD", "--")
	if err != nil {
		return err
	}
	untracked, err := git(ctx, s.repo, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return err
	}
	for _, rel := range strings.Split(changed+untracked, "\x00") {
		if rel == "" {
			continue
		}
		if err := place(filepath.Join(s.repo, rel), top, rel); err != nil {
			return fmt.Errorf("copy uncommitted %s: %w", rel, err)
		}
	}
	return nil
}

// remove deletes the copy; for a worktree, git forgets it too. Errors are
// ignored: the temporary directory is removed as a whole afterwards.
func (c *workCopy) remove() {
	if c.git {
		c.src.mu.Lock()
		_, _ = git(context.Background(), c.src.repo, "worktree", "remove", "--force", "--force", c.top)
		c.src.mu.Unlock()
	}
	_ = os.RemoveAll(c.base)
}

// prune drops worktree records whose directories are gone, in case a
// removal failed.
func (s *source) prune() {
	if s.repo != "" {
		_, _ = git(context.Background(), s.repo, "worktree", "prune")
	}
}

// git runs a git command in dir without taking optional locks (so reading
// status never rewrites the original repository's index) and returns its
// stdout.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"--no-optional-locks", "-C", dir}, args...)...)
	cmd.Env = commandEnv(nil)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return stdout.String(), nil
}

var errSpecial = errors.New("not a regular file, directory or symlink")

// Root returns the directory declared controls are relative to: the git
// top-level directory containing dir, or dir itself outside git.
func Root(ctx context.Context, dir string) string {
	top, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return dir
	}
	return strings.TrimRight(top, "\n")
}

// repoBinding are the variables that tie git to one repository, set for
// example when aepgate runs from a git hook. Left in place they would point
// git, in a copy, at the original repository's index or work tree.
var repoBinding = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR",
	"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_PREFIX", "GIT_NAMESPACE"}

// commandEnv is the environment of every command isolate starts: env, or
// when env is nil the process's environment without credentials
// (cmdenv.Scrub), and in both cases without repoBinding's variables.
func commandEnv(env []string) []string {
	if env == nil {
		env = cmdenv.Scrub(os.Environ())
	}
	return repoFreeEnv(env)
}

// Env is the environment of a command aepgate starts in dir outside an
// isolated copy (a single negative control run in place): the process's
// without credentials and the job's files (cmdenv.Scrub), with git told to
// send none of the extra HTTP headers the git configuration that applies
// in dir holds, and without git's repository bindings, as every command
// RunAll and Commands start gets.
func Env(ctx context.Context, dir string) []string {
	return cmdenv.WithoutGitHeaders(commandEnv(nil), HeaderKeys(ctx, dir)...)
}

// startEnv is the environment of every command run from src: sb.env(env),
// and when env is nil (the default) also with git told to send none of the
// extra HTTP headers src's git configuration holds, so that a command
// running git there cannot use the token actions/checkout persisted
// (cmdenv.WithoutGitHeaders). A non-nil env is used as given, but for
// git's repository bindings.
func (sb sandbox) startEnv(env []string, src *source) []string {
	out := sb.env(env)
	if env == nil {
		out = cmdenv.WithoutGitHeaders(out, src.headers...)
	}
	return out
}

// repoFreeEnv returns env without repoBinding's variables.
func repoFreeEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(repoBinding, name) {
			out = append(out, kv)
		}
	}
	return out
}
