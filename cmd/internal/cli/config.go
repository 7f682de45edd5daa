package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/internal/isolate"
	"github.com/aepgate/aepgate/internal/readfile"
	"github.com/aepgate/aepgate/protocol/config"
)

func newConfigCmd(s streams) *cobra.Command {
	return group(&cobra.Command{
		Use:   "config",
		Short: "Work with the repository config (" + config.DefaultPath + ")",
		Long: `The repository config, ` + config.DefaultPath + `, holds the policy aepgate is
meant to enforce: owners, coordinators, auditors, run-document folders, declared
negative controls, required workflows, contract paths, risk defaults, limits and
the command prefix. Today the Action acts on the run-document folders, the CLI
and the Action on the negative controls, and the App on owners, coordinators,
contract paths and the command prefix; the other keys are validated only. The
App reads the file from the default branch only. See docs/config.md.`,
	}, newConfigValidateCmd(s))
}

func newConfigValidateCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:   "validate [file]",
		Short: "Check a repository config file: strict keys, types and values",
		Long: `Check a repository config file the way the App and the Action will read it.
Every problem is printed as "file:line:col: field: message"; an unknown key,
a wrong type or an invalid value is an error, never a silent default.

file defaults to ` + config.DefaultPath + ` at the repository root (the git
top-level directory, or the current directory outside git). ` + inputLimits("The file", readfile.Config) + `;
a named pipe or a device is refused.

Exit codes: 0 valid; 2 invalid, unreadable, too large or missing; 130
interrupted.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			path := ""
			if len(args) == 1 {
				path = args[0]
			} else {
				path = cfgDisplayPath(".", filepath.Join(cfgRepoRoot(c.Context()), config.DefaultPath))
			}
			if _, err := cfgLoad(c.Context(), path, s.out); err != nil {
				return err
			}
			fmt.Fprintf(s.out, "%s: ok\n", shown(path))
			return nil
		},
	}
}

// cfgRepoRoot is the git top-level of the current directory, or the
// current directory.
func cfgRepoRoot(ctx context.Context) string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	return isolate.Root(ctx, wd)
}

// cfgLoad reads (through internal/readfile, at most 1 MB) and parses a
// repository config, printing each problem ("file:line:col: field:
// message") to w; any problem ends the command with exit 2, an interrupted
// read with 130.
func cfgLoad(ctx context.Context, path string, w io.Writer) (*config.Config, error) {
	data, err := readfile.File(ctx, path, readfile.Config)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, failf(2, "%s: not found", shown(path))
		}
		return nil, readFailed("read config", err)
	}
	cfg, err := config.Parse(shown(path), data)
	if err != nil {
		fmt.Fprintln(w, err)
		return nil, exitCode(2)
	}
	return cfg, nil
}

// cfgDisplayPath shows path relative to root when it is inside it.
func cfgDisplayPath(root, path string) string {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	if rel, err := filepath.Rel(root, path); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return path
}
