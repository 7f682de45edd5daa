package negcontrol

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Exit codes reported for commands that did not finish on their own.
const (
	// ExitTimeout is reported for a command killed at its timeout, as
	// coreutils timeout(1) does.
	ExitTimeout = 124
	// ExitInterrupted is reported for a command killed because the run was
	// interrupted (SIGINT/SIGTERM or a cancelled context).
	ExitInterrupted = 130
)

// drainWait bounds how long output is read after a command's process group
// was killed; a process that escaped the group could otherwise hold the
// pipe open forever.
const drainWait = 2 * time.Second

// killer ends a command and everything it started. Run uses killGroup; the
// negative-control test passes one that kills only the shell, to show that
// the group kill is what protects the file.
type killer func(cmd *exec.Cmd)

// outcome is what one command did.
type outcome struct {
	code        int
	output      string
	timedOut    bool
	interrupted bool
}

// runShell runs command through the shell in its own process group, with
// stdout and stderr merged into one stream. When the command exits, times
// out or ctx is done, every process left in its group is killed, so nothing
// it started can change a file afterwards (kill does the killing).
func runShell(ctx context.Context, command, dir string, env []string, timeout time.Duration, kill killer) outcome {
	cmd, r, failed := startShell(command, dir, env)
	if cmd == nil {
		return failed
	}
	defer r.Close()
	var buf bytes.Buffer
	copied := make(chan struct{})
	go func() { io.Copy(&buf, r); close(copied) }()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()

	o := awaitShell(ctx, cmd, waited, timeout, kill)
	kill(cmd)
	select {
	case <-copied:
	case <-time.After(drainWait):
		r.Close()
		<-copied
	}
	switch {
	case o.timedOut:
		o.code, o.output = ExitTimeout, fmt.Sprintf("(timed out after %ss)", formatSeconds(timeout))
	case o.interrupted:
		o.code, o.output = ExitInterrupted, "(interrupted)"
	default:
		o.code, o.output = exitStatus(cmd.ProcessState), buf.String()
	}
	return o
}

// startShell starts command through the shell in its own process group,
// writing stdout and stderr to one pipe whose read end it returns. When the
// pipe or the start fails, the command is nil and the outcome says why.
func startShell(command, dir string, env []string) (*exec.Cmd, *os.File, outcome) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, outcome{code: 127, output: fmt.Sprintf("aepgate: cannot create a pipe: %v", err)}
	}
	cmd := shellCommand(command)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin = nil
	cmd.Stdout, cmd.Stderr = w, w
	setGroup(cmd)
	startErr := cmd.Start()
	w.Close()
	if startErr != nil {
		r.Close()
		return nil, nil, outcome{code: 127, output: fmt.Sprintf("aepgate: cannot start the shell: %v", startErr)}
	}
	return cmd, r, outcome{}
}

// awaitShell waits for the command to exit (waited), to time out or for ctx
// to be done; on a timeout or ctx it kills the group and waits for the exit.
// The outcome says only which of the three happened.
func awaitShell(ctx context.Context, cmd *exec.Cmd, waited <-chan error, timeout time.Duration, kill killer) outcome {
	var expire <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expire = t.C
	}
	var o outcome
	select {
	case <-waited:
	case <-expire:
		o.timedOut = true
		kill(cmd)
		<-waited
	case <-ctx.Done():
		o.interrupted = true
		kill(cmd)
		<-waited
	}
	return o
}

// exitStatus is the command's exit code, or minus the signal number when a
// signal ended it (as Python's subprocess reports it).
func exitStatus(ps *os.ProcessState) int {
	if ps == nil {
		return -1
	}
	if code := ps.ExitCode(); code >= 0 {
		return code
	}
	if sig, ok := signalOf(ps); ok {
		return -sig
	}
	return -1
}

// formatSeconds renders a duration in seconds the way Python's %g does:
// 500ms → "0.5", 5s → "5".
func formatSeconds(d time.Duration) string {
	return fmt.Sprintf("%.6g", d.Seconds())
}

// trimOutput strips trailing newlines, as the transcript wants.
func trimOutput(s string) string { return strings.TrimRight(s, "\r\n") }
