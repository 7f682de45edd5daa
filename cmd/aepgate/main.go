// Command aepgate enforces the Auditor/Executor delivery protocol: the CLI,
// the GitHub Action (aepgate action) and the GitHub App (aepgate serve) are
// one binary.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes one command line and returns the process exit code. It is
// the whole program minus the process: tests call it with buffers.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd(stdin, stdout, stderr)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(stderr, "error: %v\n", ee.err)
		}
		return ee.code
	}
	// Anything else is a usage problem found by cobra (a wrong argument
	// count, an unknown subcommand): exit 2, as argparse does for aepkit,
	// with the same hint as a flag error.
	if cmd == nil {
		cmd = root
	}
	fmt.Fprintf(stderr, "error: %v (see '%s --help')\n", err, cmd.CommandPath())
	return 2
}

// exitError carries a process exit code out of a command. When err is nil
// the command has already printed what it had to say.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// exitCode ends the command with code, printing nothing more.
func exitCode(code int) error { return &exitError{code: code} }

// failf ends the command with code after printing "error: <message>" to stderr.
func failf(code int, format string, args ...any) error {
	return &exitError{code: code, err: fmt.Errorf(format, args...)}
}
