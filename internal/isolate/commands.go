package isolate

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"runtime"
	"sync"
	"time"
)

// tailBytes is how much of a command's output an Outcome keeps.
const tailBytes = 4096

// ExitTimeout is the exit code of a command killed at Options.Timeout, as
// coreutils timeout(1) reports it.
const ExitTimeout = 124

// Outcome is one shell command's exit code, the end of its combined
// output and how long it ran. ExitCode is -1 when the command could not be
// run (the reason is in OutputTail).
type Outcome struct {
	ExitCode   int
	OutputTail string
	Took       time.Duration
}

// Commands runs each shell command in its own copy of the tree rooted at
// root (the copies RunAll makes: a detached worktree at HEAD plus the
// uncommitted files, or a plain copy outside git), so that nothing a
// command writes reaches the original; opts.Jobs of them at once, each
// within opts.Timeout. The outcomes are in the order given. The copies are
// removed, and every process a command started is killed, before Commands
// returns.
func Commands(ctx context.Context, root string, commands []string, opts Options) ([]Outcome, error) {
	return commandsIn(ctx, root, commands, opts, isolated())
}

// commandsIn is Commands using sb's copies and environment.
func commandsIn(ctx context.Context, root string, commands []string, opts Options, sb sandbox) ([]Outcome, error) {
	src, tmp, done, err := setUp(ctx, root, opts)
	if err != nil {
		return nil, err
	}
	defer done()
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	out := make([]Outcome, len(commands))
	ready := prepare(ctx, sb, src, tmp, len(commands), jobs)
	removals := make(chan *workCopy, len(commands))
	removed := make(chan struct{})
	go func() { // removal is off the commands' critical path too
		for cp := range removals {
			cp.remove()
		}
		close(removed)
	}()
	var wg sync.WaitGroup
	for range min(jobs, len(commands)) {
		wg.Go(func() {
			for p := range ready {
				out[p.i] = sb.runIn(ctx, p, commands[p.i], sb.startEnv(opts.Env, src), opts.Timeout)
				if p.cp != nil {
					removals <- p.cp
				}
			}
		})
	}
	wg.Wait()
	close(removals)
	<-removed
	return out, nil
}

// preparedCopy is command i's copy of the tree, or why it could not be
// made.
type preparedCopy struct {
	i   int
	cp  *workCopy
	err error
}

// prepare makes the n commands' copies in order, ahead of the workers: at
// most jobs wait ready, so a command's copy is made while earlier commands
// run.
func prepare(ctx context.Context, sb sandbox, src *source, tmp string, n, jobs int) <-chan preparedCopy {
	ready := make(chan preparedCopy, jobs)
	go func() {
		defer close(ready)
		for i := range n {
			cp, err := sb.copy(ctx, src, tmp, fmt.Sprintf("cmd-%02d", i))
			ready <- preparedCopy{i: i, cp: cp, err: err}
		}
	}()
	return ready
}

// runIn runs command with sh -c in its prepared copy. When ctx ends or
// timeout passes, the command's whole process group is killed.
func (sb sandbox) runIn(ctx context.Context, p preparedCopy, command string, env []string, timeout time.Duration) Outcome {
	if p.err != nil {
		return Outcome{ExitCode: -1, OutputTail: "could not prepare an isolated copy of the tree: " + p.err.Error()}
	}
	cp := p.cp
	run := ctx
	if timeout > 0 {
		var cancel context.CancelFunc
		run, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(run, "/bin/sh", "-c", command)
	cmd.Dir, cmd.Env, cmd.WaitDelay = cp.dir, env, 5*time.Second
	killTree(cmd)
	tail := &tailWriter{}
	cmd.Stdout, cmd.Stderr = tail, tail
	start := time.Now()
	err := cmd.Run()
	o := Outcome{OutputTail: tail.String(), Took: time.Since(start)}
	var exit *exec.ExitError
	switch {
	case err != nil && ctx.Err() == nil && run.Err() != nil:
		o.ExitCode, o.OutputTail = ExitTimeout, o.OutputTail+fmt.Sprintf("(timed out after %s; its processes were killed)", timeout)
	case err == nil:
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		o.ExitCode = exit.ExitCode()
	default:
		o.ExitCode, o.OutputTail = -1, o.OutputTail+err.Error()
	}
	return o
}

// tailWriter keeps the last tailBytes bytes written to it.
type tailWriter struct{ b []byte }

func (w *tailWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	if len(w.b) > tailBytes {
		w.b = append(w.b[:0], w.b[len(w.b)-tailBytes:]...)
	}
	return len(p), nil
}

func (w *tailWriter) String() string { return string(w.b) }
