// Package replay observes, in a local git repository, how much of a
// shipped commit an audit covers: it replays the audited change onto the
// commit it landed on with git's own merge (`git merge-tree --write-tree`,
// git ≥ 2.38) and lists where the shipped tree differs. protocol/coverage
// classifies what it observes (identity, replay, residual, unverifiable).
//
// It reads a local repository, not GitHub's git data API: the replay must
// be git's merge machinery itself (its rename detection, its conflict
// rules), which the data API does not offer and which a reimplementation
// over trees and blobs fetched one API call each would only approximate,
// at a cost in rate limit that grows with the change. A bare clone kept
// per repository costs one clone, then a fetch of the few new commits per
// merge, and works the same against GitHub Enterprise Server. Init and
// Fetch keep such a clone (fetching commits by SHA over https with a
// token); Observe never fetches: a commit the repository lacks makes the
// result unverifiable (a missing object).
//
// git runs with the environment protocol/cmdenv.Scrub leaves, without the
// system and global git config (so no user setting changes the merge), in
// the C locale, under the caller's context and a timeout. Every commit is
// a full 40-hex SHA checked before git sees it, and paths follow "--".
package replay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/aepgate/aepgate/protocol/cmdenv"
	"github.com/aepgate/aepgate/protocol/coverage"
)

// DefaultTimeout bounds one Observe when the caller's context has no
// earlier deadline.
const DefaultTimeout = 2 * time.Minute

// Repo is a local git repository, bare or not, read and written (the
// replay writes its merged tree's objects) through the git command.
type Repo struct {
	dir     string
	timeout time.Duration
}

// Open returns the repository at dir; an error when git does not see one
// there, or when git is older than 2.38 (no merge-tree --write-tree).
func Open(ctx context.Context, dir string) (*Repo, error) {
	r := &Repo{dir: dir, timeout: DefaultTimeout}
	out, _, err := r.git(ctx, "version")
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	if !Supported(string(out)) {
		return nil, fmt.Errorf("replay: %s: git 2.38 or later is needed for merge-tree --write-tree", strings.TrimSpace(string(out)))
	}
	if _, _, err := r.git(ctx, "rev-parse", "--git-dir"); err != nil {
		return nil, fmt.Errorf("replay: %s is not a git repository: %w", dir, err)
	}
	return r, nil
}

// Supported reports whether `git version` printed version (e.g. "git
// version 2.39.5", "git version 2.45.1.windows.1") is 2.38 or later.
func Supported(version string) bool {
	v, ok := strings.CutPrefix(strings.TrimSpace(version), "git version ")
	if !ok {
		return false
	}
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return false
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return false
	}
	return major > 2 || major == 2 && minor >= 38
}

// Input names the commits of one replay. Onto is the commit the change
// landed on; empty means the shipped commit's first parent (a squash, a
// one-commit rebase or a merge commit). For a rebase of several commits it
// is the base branch's commit before them (the push's "before"). AuditBase
// empty means git's one merge base of Onto and the audited head (what the
// App uses: GitHub records no base with an audit); several merge bases, or
// none, are unverifiable.
type Input struct {
	AuditedHead string
	AuditBase   string
	Shipped     string
	Onto        string
}

// Coverage observes in and classifies it.
func (r *Repo) Coverage(ctx context.Context, in Input) (coverage.Observation, coverage.Result, error) {
	o, err := r.Observe(ctx, in)
	if err != nil {
		return o, coverage.Result{}, err
	}
	return o, coverage.Classify(o), nil
}

// Observe gathers what coverage.Classify needs. What the repository
// cannot answer (an invalid or missing commit, a failed replay) becomes
// the observation's Problem, which classifies as unverifiable; an error is
// returned only when git could not be run or the context ended, so that
// the caller can try again.
func (r *Repo) Observe(ctx context.Context, in Input) (coverage.Observation, error) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	o := coverage.Observation{AuditedHead: in.AuditedHead, AuditBase: in.AuditBase, Shipped: in.Shipped, Onto: in.Onto}
	if p := invalid(in); p != "" {
		o.Problem = p
		return o, nil
	}
	err := r.observe(ctx, &o)
	var pe *problemError
	if errors.As(err, &pe) && ctx.Err() == nil {
		o.Problem = pe.msg
		return o, nil
	}
	if err != nil {
		return o, fmt.Errorf("replay: %w", err)
	}
	return o, nil
}

// invalid says what is wrong with in's names ("" when nothing).
func invalid(in Input) string {
	names := [][2]string{{"audited head", in.AuditedHead}, {"shipped commit", in.Shipped}}
	for _, n := range [][2]string{{"audit base", in.AuditBase}, {"onto", in.Onto}} {
		if n[1] != "" {
			names = append(names, n)
		}
	}
	for _, n := range names {
		if !coverage.ValidSHA(n[1]) {
			return fmt.Sprintf("the %s %q is not a full 40-hex commit SHA", n[0], n[1])
		}
	}
	return ""
}

// observe fills o step by step; a *problemError ends it unverifiable.
func (r *Repo) observe(ctx context.Context, o *coverage.Observation) error {
	if err := r.commits(ctx, o.AuditedHead, o.AuditBase, o.Shipped, o.Onto); err != nil {
		return err
	}
	var err error
	if o.ShippedTree, o.ShippedParents, err = r.treeAndParents(ctx, o.Shipped); err != nil {
		return err
	}
	if o.AuditedTree, _, err = r.treeAndParents(ctx, o.AuditedHead); err != nil {
		return err
	}
	if o.Onto == "" {
		if len(o.ShippedParents) == 0 {
			return problem("the shipped commit %s has no parent to replay onto", o.Shipped)
		}
		o.Onto = o.ShippedParents[0]
	}
	if o.AuditedContainsOnto, err = r.isAncestor(ctx, o.Onto, o.AuditedHead); err != nil {
		return err
	}
	if o.AuditBase == "" {
		if o.AuditBase, err = r.soleMergeBase(ctx, o.Onto, o.AuditedHead); err != nil {
			return err
		}
	}
	if o.ShippedTree == o.AuditedTree {
		return nil
	}
	if o.ReplayBases, err = r.mergeBases(ctx, o.Onto, o.AuditedHead); err != nil {
		return err
	}
	mt, err := r.mergeTree(ctx, o.Onto, o.AuditedHead)
	if err != nil {
		return err
	}
	o.ReplayTree, o.Conflicts = mt.Tree, mt.Conflicts
	if o.ReplayTree == o.ShippedTree {
		return nil
	}
	o.Differences, err = r.differences(ctx, o.ReplayTree, o.ShippedTree)
	return err
}

// problemError is what the repository could not answer: the observation
// is unverifiable, and trying again will not change that.
type problemError struct{ msg string }

func (p *problemError) Error() string { return p.msg }

func problem(format string, args ...any) error {
	return &problemError{msg: fmt.Sprintf(format, args...)}
}

// commits checks that every non-empty name is a commit of the repository
// (one git cat-file --batch-check).
func (r *Repo) commits(ctx context.Context, shas ...string) error {
	var in strings.Builder
	var want []string
	for _, s := range shas {
		if s != "" {
			in.WriteString(s + "\n")
			want = append(want, s)
		}
	}
	out, _, err := r.gitIn(ctx, strings.NewReader(in.String()), "cat-file", "--batch-check")
	if err != nil {
		return err
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(want) {
		return fmt.Errorf("git cat-file: %d answers for %d objects", len(lines), len(want))
	}
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) < 2 || f[0] != want[i] || f[1] != "commit" {
			return problem("the repository has no commit %s (git: %q): fetch it first", want[i], l)
		}
	}
	return nil
}

// treeAndParents are a commit's tree and parents.
func (r *Repo) treeAndParents(ctx context.Context, sha string) (string, []string, error) {
	out, _, err := r.git(ctx, "show", "-s", "--format=%T%n%P", sha)
	if err != nil {
		return "", nil, err
	}
	tree, parents, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	ps := strings.Fields(parents)
	for _, s := range append([]string{tree}, ps...) {
		if !coverage.ValidSHA(s) {
			return "", nil, problem("commit %s: unreadable tree or parent %q", sha, s)
		}
	}
	return tree, ps, nil
}

// isAncestor reports whether a is b or one of its ancestors.
func (r *Repo) isAncestor(ctx context.Context, a, b string) (bool, error) {
	_, code, err := r.git(ctx, "merge-base", "--is-ancestor", a, b)
	switch {
	case err == nil:
		return true, nil
	case code == 1:
		return false, nil
	}
	return false, err
}

// soleMergeBase is the one merge base of a and b; several or none are a
// problem (the audited change would not be one diff).
func (r *Repo) soleMergeBase(ctx context.Context, a, b string) (string, error) {
	bases, err := r.mergeBases(ctx, a, b)
	if err != nil {
		return "", err
	}
	if len(bases) != 1 {
		return "", problem("the audited head %s and %s have %d merge bases (%s), not one: the audited change is not one diff", b, a, len(bases), strings.Join(bases, ", "))
	}
	return bases[0], nil
}

// mergeBases are every merge base of a and b (none for unrelated
// histories).
func (r *Repo) mergeBases(ctx context.Context, a, b string) ([]string, error) {
	out, code, err := r.git(ctx, "merge-base", "--all", a, b)
	if err != nil && code == 1 {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(out)), nil
}

// mergeTree replays b's side onto a with git merge-tree --write-tree:
// exit 0 is a clean merge, 1 a conflicted one; anything else git could
// not merge.
func (r *Repo) mergeTree(ctx context.Context, a, b string) (coverage.MergeTree, error) {
	out, code, err := r.git(ctx, "merge-tree", "--write-tree", "-z", "--name-only", a, b)
	if err != nil && code != 1 {
		if code > 1 {
			return coverage.MergeTree{}, problem("git merge-tree could not replay %s onto %s: %v", b, a, err)
		}
		return coverage.MergeTree{}, err
	}
	mt, perr := coverage.ParseMergeTree(out, err == nil)
	if perr != nil {
		return coverage.MergeTree{}, problem("replay of %s onto %s: %v", b, a, perr)
	}
	return mt, nil
}

// git runs git in the repository; see gitIn.
func (r *Repo) git(ctx context.Context, args ...string) ([]byte, int, error) {
	return r.gitIn(ctx, nil, args...)
}

// gitIn runs git with stdin in the repository's directory and returns its
// standard output and exit code; a failure carries git's first line of
// error output.
func (r *Repo) gitIn(ctx context.Context, stdin *strings.Reader, args ...string) ([]byte, int, error) {
	return r.run(ctx, Env(os.Environ()), stdin, args...)
}

// run is gitIn with the environment env.
func (r *Repo) run(ctx context.Context, env []string, stdin *strings.Reader, args ...string) ([]byte, int, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", r.dir}, args...)...)
	cmd.Env = env
	if stdin != nil {
		cmd.Stdin = stdin
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err == nil {
		return stdout.Bytes(), 0, nil
	}
	if ctx.Err() != nil {
		return nil, -1, fmt.Errorf("git %s: %w", args[0], ctx.Err())
	}
	code := -1
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	}
	if msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n"); msg != "" {
		return stdout.Bytes(), code, fmt.Errorf("git %s: %s", args[0], msg)
	}
	return stdout.Bytes(), code, fmt.Errorf("git %s: %w", args[0], err)
}

// Env is the environment git runs with: env as cmdenv.Scrub leaves it,
// without the system and global git configuration, never prompting, in
// the C locale.
func Env(env []string) []string {
	out := cmdenv.Scrub(env)
	kept := out[:0]
	for _, kv := range out {
		name, _, _ := strings.Cut(kv, "=")
		switch strings.ToUpper(name) {
		case "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_TERMINAL_PROMPT", "LC_ALL", "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG_PARAMETERS":
			continue
		}
		kept = append(kept, kv)
	}
	return append(kept, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
}

// RebaseOnto is, for a shipped commit that may end a rebase of the audited
// head's commits, the base branch's commit before them: the shipped
// commit's k-th first-parent ancestor, k the number of commits from the
// audited head's merge base with the shipped commit to the audited head.
// It is "" when k is at most 1 (the first parent is the one to replay
// onto) or when the repository cannot say (Observe then reports why).
func (r *Repo) RebaseOnto(ctx context.Context, auditedHead, shipped string) (string, error) {
	if !coverage.ValidSHA(auditedHead) || !coverage.ValidSHA(shipped) {
		return "", nil
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	base, err := r.soleMergeBase(ctx, shipped, auditedHead)
	var pe *problemError
	if errors.As(err, &pe) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("replay: %w", err)
	}
	out, _, err := r.git(ctx, "rev-list", "--count", "--first-parent", base+".."+auditedHead)
	if err != nil {
		return "", fmt.Errorf("replay: %w", err)
	}
	k, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil || k <= 1 {
		return "", nil
	}
	out, code, err := r.git(ctx, "rev-parse", "--verify", "--quiet", shipped+"~"+strconv.Itoa(k)+"^{commit}")
	if err != nil && code == 1 {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("replay: %w", err)
	}
	onto := strings.TrimSpace(string(out))
	if !coverage.ValidSHA(onto) {
		return "", nil
	}
	return onto, nil
}
