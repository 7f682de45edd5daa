// Package cli is aepgate's command line: every subcommand of the binary
// (cmd/aepgate), the Action's (aepgate action) included. The commands that
// link the App's libraries (serve, ledger, simulate) are package
// cmd/internal/appcmd's, linked only by cmd/aepgate-app; aepgate runs that
// binary for them (App, appexec.go), so that its own start initialises
// no database, queue or metrics library.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

// Main runs the process's command line and returns its exit code; an
// interrupt or SIGTERM cancels the command's context. version is the one
// set at link time in package main ("" when none was); side is what the
// binary adds of the App's (nil in aepgate: see App).
func Main(version string, side *App) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Execute(ctx, rootFor(version, side, os.Args[1:], os.Stdin, os.Stdout, os.Stderr), os.Args[1:], os.Stderr)
}

// Run executes one command line in-process, as aepgate would, and returns
// its exit code: tests call it with buffers.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return RunWith(ctx, nil, args, stdin, stdout, stderr)
}

// RunWith is Run with side's App commands (see App).
func RunWith(ctx context.Context, side *App, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return Execute(ctx, rootFor("", side, args, stdin, stdout, stderr), args, stderr)
}

// Execute runs root, a binary's command tree, with args and returns the
// process exit code, as every aepgate binary does: a command ended by Fail
// prints "error: <message>" to stderr and exits with its code; a flag,
// argument count or subcommand cobra refuses is exit 2, with the failing
// command's --help named. A command that fails once ctx is cancelled (Ctrl-C
// or SIGTERM in Main) exits 130 whatever code it chose: an interrupted read
// of GitHub is not GitHub unreachable, nor a half-done check a finding.
func Execute(ctx context.Context, root *cobra.Command, args []string, stderr io.Writer) int {
	root.SetArgs(args)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return failf(2, "%v (see '%s --help')", err, c.CommandPath())
	})
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(stderr, "error: %v\n", ee.err)
		}
		return interrupted(ctx, ee.code)
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

// interrupted is exitInterrupted when ctx was cancelled (not merely past a
// deadline), else code.
func interrupted(ctx context.Context, code int) int {
	if errors.Is(ctx.Err(), context.Canceled) {
		return exitInterrupted
	}
	return code
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

// Fail ends a command run by Execute with code after printing
// "error: <message>" to stderr; failf is its name inside this package.
func Fail(code int, format string, args ...any) error { return failf(code, format, args...) }

// failf ends the command with code after printing "error: <message>" to stderr.
func failf(code int, format string, args ...any) error {
	return &exitError{code: code, err: fmt.Errorf(format, args...)}
}
