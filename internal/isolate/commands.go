package isolate

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"
)

// tailBytes is how much of a command's output an Outcome keeps.
const tailBytes = 4096

// Outcome is one shell command's exit code and the end of its combined
// output. ExitCode is -1 when the command could not be run (the reason is
// in OutputTail).
type Outcome struct {
	ExitCode   int
	OutputTail string
}

// Commands runs each shell command, one after another, in its own copy of
// the tree rooted at root (the copies RunAll makes: a detached worktree at
// HEAD plus the uncommitted files, or a plain copy outside git), so that
// nothing a command writes reaches the original. The copies are removed
// before Commands returns.
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
	out := make([]Outcome, len(commands))
	for i, c := range commands {
		out[i] = sb.runCommand(ctx, src, tmp, i, c, sb.env(opts.Env))
	}
	return out, nil
}

// runCommand makes a copy, runs command there with sh -c and removes it.
// When ctx ends, the command's whole process group is killed.
func (sb sandbox) runCommand(ctx context.Context, src *source, tmp string, i int, command string, env []string) Outcome {
	cp, err := sb.copy(ctx, src, tmp, fmt.Sprintf("cmd-%02d", i))
	if cp != nil {
		defer cp.remove()
	}
	if err != nil {
		return Outcome{ExitCode: -1, OutputTail: "could not prepare an isolated copy of the tree: " + err.Error()}
	}
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.Dir, cmd.Env, cmd.WaitDelay = cp.dir, env, 5*time.Second
	killTree(cmd)
	tail := &tailWriter{}
	cmd.Stdout, cmd.Stderr = tail, tail
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return Outcome{ExitCode: 0, OutputTail: tail.String()}
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		return Outcome{ExitCode: exit.ExitCode(), OutputTail: tail.String()}
	default:
		return Outcome{ExitCode: -1, OutputTail: tail.String() + err.Error()}
	}
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
