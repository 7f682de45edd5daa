// Package gitobj reads files from a git repository's objects at a commit
// by running git: the tree entries and blobs recorded in the commit, never
// the working tree, the index or anything outside the repository.
package gitobj

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/aepgate/aepgate/protocol/cmdenv"
)

// ErrNotRepository is returned by Open when the directory is not inside a
// git repository.
var ErrNotRepository = errors.New("not a git repository")

// ErrUnknownCommit is returned by Resolve when the revision names no
// commit of the repository.
var ErrUnknownCommit = errors.New("no such commit")

// Repo is a git repository, read through the git command.
type Repo struct {
	dir string
}

// Open returns the repository dir belongs to; ErrNotRepository (wrapped)
// when there is none.
func Open(ctx context.Context, dir string) (*Repo, error) {
	r := &Repo{dir: dir}
	if _, err := r.git(ctx, nil, "rev-parse", "--git-dir"); err != nil {
		return nil, fmt.Errorf("%s: %w (%w)", dir, ErrNotRepository, err)
	}
	return r, nil
}

// Resolve returns the full SHA of the commit rev names ("HEAD", a branch,
// a tag or an abbreviated SHA); ErrUnknownCommit (wrapped) when it names
// none. A revision starting with "-" is refused: git would read it as an
// option.
func (r *Repo) Resolve(ctx context.Context, rev string) (string, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return "", fmt.Errorf("resolve %q: %w", rev, ErrUnknownCommit)
	}
	out, err := r.git(ctx, nil, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("resolve %q: %w", rev, ErrUnknownCommit)
	}
	return strings.TrimSpace(string(out)), nil
}

// File is one path as the commit records it.
type File struct {
	Path string
	// Content is the blob's bytes; for a symbolic link, its target.
	Content []byte
	// Symlink: the tree records the path with mode 120000.
	Symlink bool
	// Missing: the commit has no blob at the path (nothing there, a
	// directory, a submodule, or a path through a symbolic link, which git
	// does not follow).
	Missing bool
}

// Files reads paths at commit, in the order given: their tree entries
// (one git ls-tree), then their blobs (one git cat-file --batch). Paths
// are literal and relative to the repository's top level.
func (r *Repo) Files(ctx context.Context, commit string, paths []string) ([]File, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	if commit == "" || strings.HasPrefix(commit, "-") {
		return nil, fmt.Errorf("read files: %w", ErrUnknownCommit)
	}
	args := append([]string{"--literal-pathspecs", "ls-tree", "-z", "--full-tree", commit, "--"}, paths...)
	listing, err := r.git(ctx, nil, args...)
	if err != nil {
		return nil, fmt.Errorf("list files at %s: %w", commit, err)
	}
	entries, err := ParseTree(listing)
	if err != nil {
		return nil, fmt.Errorf("list files at %s: %w", commit, err)
	}
	out := make([]File, len(paths))
	var oids []string
	for i, p := range paths {
		e, ok := entries[p]
		out[i] = File{Path: p, Missing: !ok || e.Type != "blob", Symlink: ok && e.Mode == SymlinkMode}
		if !out[i].Missing {
			oids = append(oids, e.Object)
		}
	}
	blobs, err := r.blobs(ctx, oids)
	if err != nil {
		return nil, fmt.Errorf("read files at %s: %w", commit, err)
	}
	for i := range out {
		if !out[i].Missing {
			out[i].Content = blobs[entries[out[i].Path].Object]
		}
	}
	return out, nil
}

// blobs reads the blobs oids name with one git cat-file --batch.
func (r *Repo) blobs(ctx context.Context, oids []string) (map[string][]byte, error) {
	if len(oids) == 0 {
		return nil, nil
	}
	out, err := r.git(ctx, strings.NewReader(strings.Join(oids, "\n")+"\n"), "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	return ParseBatch(out)
}

// git runs git in the repository's directory with stdin, and returns its
// standard output; a failure carries git's first line of error output.
func (r *Repo) git(ctx context.Context, stdin *strings.Reader, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", r.dir}, args...)...)
	cmd.Env = cmdenv.Scrub(os.Environ())
	if stdin != nil {
		cmd.Stdin = stdin
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		name := subcommand(args)
		if msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n"); msg != "" {
			return nil, fmt.Errorf("git %s: %s", name, msg)
		}
		return nil, fmt.Errorf("git %s: %w", name, err)
	}
	return stdout.Bytes(), nil
}

// subcommand is the first argument that is not an option.
func subcommand(args []string) string {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return "git"
}
