package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"

	"github.com/spf13/cobra"
)

// AppBinary is the binary that links the App's libraries (cmd/aepgate-app):
// released beside aepgate, in the image and in archives of its own.
const AppBinary = "aepgate-app"

// The one lines of the App's commands, in aepgate-app and in aepgate's
// --help, which lists them as its own.
const (
	ServeShort    = "Run the GitHub App: receive webhooks and keep aepgate's check runs on pull requests"
	LedgerShort   = "Inspect the App's append-only, hash-chained decision ledger"
	SimulateShort = "Judge one pull request as the App would, read-only, and print every check"
)

// appCommandNames are the App's top-level commands.
var appCommandNames = []string{"serve", "ledger", "simulate", "app", "mcp"}

// appCommands are the App's commands: side's own where it gives them,
// otherwise commands that run aepgate-app with the same arguments.
func appCommands(s streams, side *App) []*cobra.Command {
	var out []*cobra.Command
	if side != nil && side.Commands != nil {
		out = side.Commands(s.in, s.out, s.err, s.version)
	} else {
		out = append(out, runsApp("serve", ServeShort), runsApp("ledger", LedgerShort), runsApp("simulate", SimulateShort))
	}
	if side != nil && side.Events != nil {
		out = append(out, newAppCmd(s, side.Events))
	} else {
		out = append(out, runsApp("app", appShort))
	}
	if side != nil && side.ServeMCP != nil && side.Simulate != nil {
		out = append(out, newMCPCmd(s, side))
	} else {
		out = append(out, runsApp("mcp", mcpShort))
	}
	return out
}

// runsApp is the command name of aepgate that aepgate-app runs: every
// argument and flag (--help included) goes to it unread.
func runsApp(name, short string) *cobra.Command {
	return &cobra.Command{
		Use:                name,
		Short:              short,
		Long:               short + ".\n\naepgate runs " + AppBinary + " " + name + " for this command: " + AppBinary + " links the\nApp's libraries (database, queue, metrics), which aepgate does not, so that\nits other commands start without them. '" + AppBinary + " " + name + " --help' shows the\ncommand's flags and exit codes.",
		DisableFlagParsing: true,
		RunE: func(c *cobra.Command, args []string) error {
			path, err := appBinaryPath()
			if err != nil {
				return failf(exitUsage, "'aepgate %s' runs %s, which is not next to this binary (%v): install it from the release archive %s_<version>_<os>_<arch> (the image carries both), or 'go install github.com/aepgate/aepgate/cmd/%s@<version>'", name, AppBinary, err, AppBinary, AppBinary)
			}
			return execApp(c, path, append([]string{AppBinary, name}, args...))
		},
	}
}

// appBinaryPath is aepgate-app in the folder of this executable (links
// resolved), when it is a regular file there.
func appBinaryPath() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(self); err == nil {
		self = real
	}
	name := AppBinary
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	path := filepath.Join(filepath.Dir(self), name)
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", errors.New(path + " is not a regular file")
	}
	return path, nil
}

// execApp runs path with argv. Where the system can, the process becomes
// aepgate-app (its process ID, signals and exit code are then the App's,
// as a container's first process needs); on Windows aepgate-app runs as a
// child on the same console and its exit code is returned.
func execApp(c *cobra.Command, path string, argv []string) error {
	if runtime.GOOS != "windows" {
		err := syscall.Exec(path, argv, os.Environ())
		return failf(exitUsage, "run %s: %v", path, err)
	}
	cmd := exec.Command(path, argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = c.InOrStdin(), c.OutOrStdout(), c.ErrOrStderr()
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ee):
		return exitCode(ee.ExitCode())
	}
	return failf(exitUsage, "run %s: %v", path, err)
}
