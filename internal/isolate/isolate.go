// Package isolate runs a repository's declared negative controls, each in
// its own copy of the working tree, in parallel. The original tree is never
// modified: a control breaks and restores files in its copy only (a
// declared file or working directory whose symlinks lead out of the copy is
// refused), and the copies are removed afterwards, also when a control fails, hangs or the
// run is interrupted.
//
// Inside a git repository a copy is a detached git worktree at HEAD plus
// the uncommitted changes and the untracked files that are not ignored;
// elsewhere it is a plain copy of the directory.
package isolate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/negcontrol"
)

// TempPrefix starts the name of the temporary directory holding the copies.
const TempPrefix = "aepgate-isolate-"

// Options tune RunAll.
type Options struct {
	// Jobs is how many controls (or Commands) run at once; zero or less
	// means the number of CPUs.
	Jobs int
	// Timeout bounds each of Commands' commands: at it, the command's whole
	// process group is killed and its exit code is ExitTimeout. Zero means
	// no limit. (A control's timeout is its own, in its config.)
	Timeout time.Duration
	// TempDir is where copies are made; empty means the system's
	// temporary directory.
	TempDir string
	// Env is the commands' environment; nil means the current process's
	// without the credentials cmdenv.Scrub removes (the Action's token, the
	// runner's ACTIONS_* and the GitHub CLI's GH_* variables). A non-nil Env
	// is used as given, but for git's repository bindings.
	Env []string
}

// RunAll runs every control against its own copy of the tree rooted at
// root (the repository root the controls' paths are relative to) and
// returns one result per control, in the order given. A control whose copy
// could not be made gets a failed result saying why. ctx cancellation
// (SIGINT/SIGTERM) stops the controls after restoring their copies; the
// copies are removed before RunAll returns.
func RunAll(ctx context.Context, root string, controls []config.NegativeControl, opts Options) ([]negcontrol.Result, error) {
	return runAll(ctx, root, controls, opts, isolated())
}

// sandbox is what keeps a control away from the original tree: the copy it
// runs in, the folder its declared file and working directory must resolve
// inside, and the environment its commands get. RunAll uses isolated(); the
// negative-control tests pass a weakened sandbox to show that each part is
// what protects the original.
type sandbox struct {
	copy    func(ctx context.Context, src *source, tmp, name string) (*workCopy, error)
	confine func(cp *workCopy) string
	env     func(env []string) []string
}

// isolated is RunAll's sandbox: a fresh copy of the tree per control, a
// declared file and working directory that must resolve inside that copy
// (a symlink to an absolute path, or a "..", would otherwise lead the
// break and the restore back into the original), and an environment
// without git's repository bindings (nor, by default, credentials).
func isolated() sandbox {
	return sandbox{
		copy: func(ctx context.Context, src *source, tmp, name string) (*workCopy, error) {
			return src.copy(ctx, tmp, name)
		},
		confine: func(cp *workCopy) string { return cp.top },
		env:     commandEnv,
	}
}

// runAll is RunAll running every control in sb.
func runAll(ctx context.Context, root string, controls []config.NegativeControl, opts Options, sb sandbox) ([]negcontrol.Result, error) {
	src, tmp, done, err := setUp(ctx, root, opts)
	if err != nil {
		return nil, err
	}
	defer done()

	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	results := make([]negcontrol.Result, len(controls))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(jobs, len(controls)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = sb.runOne(ctx, src, tmp, i, controls[i], sb.startEnv(opts.Env, src))
			}
		}()
	}
	for i := range controls {
		next <- i // controls start in the order declared
	}
	close(next)
	wg.Wait()
	return results, nil
}

// runOne makes a copy for one control, runs it there and removes the copy.
func (sb sandbox) runOne(ctx context.Context, src *source, tmp string, i int, nc config.NegativeControl, env []string) negcontrol.Result {
	start := time.Now()
	if ctx.Err() != nil {
		return failed(nc.Name, start, true, "FAIL: interrupted before the control started.")
	}
	cp, err := sb.copy(ctx, src, tmp, fmt.Sprintf("%02d-%s", i, nc.Name))
	if cp != nil {
		defer cp.remove()
	}
	if err != nil {
		return failed(nc.Name, start, ctx.Err() != nil, "FAIL: could not prepare an isolated copy of the tree: "+err.Error())
	}
	res := negcontrol.Run(ctx, negcontrol.Spec{
		Test: nc.Test, Break: nc.Break, Restore: nc.Restore, File: nc.File, Expect: nc.Expect,
		Timeout: nc.Timeout, Dir: cp.dir, Env: env, BackupDir: cp.backups, Confine: sb.confine(cp),
	})
	res.Name = nc.Name
	res.Seconds = time.Since(start).Seconds() // including the copy
	return res
}

// failed is the result of a control that could not run.
func failed(name string, start time.Time, interrupted bool, verdict string) negcontrol.Result {
	return negcontrol.Result{
		Name: name, Verdict: verdict, Transcript: verdict + "\n", Interrupted: interrupted,
		Seconds: time.Since(start).Seconds(),
	}
}

// setUp inspects root and makes the temporary folder the copies go in;
// done removes the folder and prunes what inspect registered.
func setUp(ctx context.Context, root string, opts Options) (src *source, tmp string, done func(), err error) {
	if src, err = inspect(ctx, root); err != nil {
		return nil, "", nil, err
	}
	if tmp, err = os.MkdirTemp(opts.TempDir, TempPrefix); err != nil {
		src.prune()
		return nil, "", nil, fmt.Errorf("isolate: create temporary directory: %w", err)
	}
	if abs, err := filepath.Abs(tmp); err == nil {
		tmp = abs
	}
	return src, tmp, func() {
		src.prune()
		os.RemoveAll(tmp)
	}, nil
}
