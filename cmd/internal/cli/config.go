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
		Long:  configGroupLong(),
	}, newConfigValidateCmd(s))
}

func newConfigValidateCmd(s streams) *cobra.Command {
	var fl resolveFlags
	cmd := &cobra.Command{
		Use:   "validate [file] [--resolved] [--base FILE | --repo owner/name]",
		Short: "Check a repository config file: strict keys, types and values",
		Long:  configValidateLong,
		Example: `  aepgate config validate
  aepgate config validate examples/aepgate.yml --format json
  aepgate config validate --resolved --base ../org-policy/aepgate.yml
  aepgate config validate --resolved --repo acme/widgets`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			path := ""
			if len(args) == 1 {
				path = args[0]
			} else if fl.repo == "" {
				path = cfgDisplayPath(".", filepath.Join(cfgRepoRoot(c.Context()), config.DefaultPath))
			}
			if fl.base != "" || fl.repo != "" || fl.resolved {
				return configResolve(c.Context(), s, path, fl)
			}
			return configValidate(c.Context(), s, path, fl.format)
		},
	}
	addResolveFlags(cmd, &fl)
	addFormat(cmd, &fl.format)
	return cmd
}

// configValidate reads and checks the file at path and reports it.
func configValidate(ctx context.Context, s streams, path, format string) error {
	data, err := cfgRead(ctx, path)
	if err != nil {
		return err
	}
	_, err = config.Parse(shown(path), data)
	var problems config.Errors
	if err != nil && !errors.As(err, &problems) {
		return failf(exitUsage, "%s: %v", shown(path), err)
	}
	if format == formatJSON {
		if werr := writeJSON(s.out, configReport(path, problems)); werr != nil {
			return failf(exitUsage, "config validate: %v", werr)
		}
	} else if err != nil {
		fmt.Fprintln(s.out, err)
	} else {
		fmt.Fprintf(s.out, "%s: ok\n", shown(path))
	}
	if err != nil {
		return exitCode(exitFindings)
	}
	return nil
}

// configProblem is one problem in config validate's JSON.
type configProblem struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Field   string `json:"field"`
	Message string `json:"message"`
}

func configReport(path string, problems config.Errors) map[string]any {
	out := []configProblem{}
	for _, p := range problems {
		out = append(out, configProblem{p.File, p.Line, p.Column, p.Field, p.Message})
	}
	return map[string]any{"file": path, "valid": len(problems) == 0, "problems": out}
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
	data, err := cfgRead(ctx, path)
	if err != nil {
		return nil, err
	}
	cfg, err := config.Parse(shown(path), data)
	if err != nil {
		fmt.Fprintln(w, err)
		return nil, exitCode(2)
	}
	return cfg, nil
}

// cfgRead reads the config file at path (at most 1 MB, a regular file);
// its error ends the command (exit 2, 130 when interrupted).
func cfgRead(ctx context.Context, path string) ([]byte, error) {
	data, err := readfile.File(ctx, path, readfile.Config)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, failf(exitUsage, "%s: not found", shown(path))
		}
		return nil, readFailed("read config", err)
	}
	return data, nil
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

// configValidateLong is `aepgate config validate --help`'s text.
var configValidateLong = `Check a repository config file the way the App and the Action will read it.
Every problem is printed as "file:line:col: field: message"; an unknown key,
a wrong type or an invalid value is an error, never a silent default.

file defaults to ` + config.DefaultPath + ` at the repository root (the git
top-level directory, or the current directory outside git). ` + inputLimits("The file", readfile.Config) + `;
a named pipe or a device is refused.

A file with "extends: OWNER/REPO:PATH" adds to an organization's base
policy. With --base FILE (a local copy of the base) or --repo owner/name
(read through GitHub as the App does: the base from its repository's default
branch and, without a file argument, owner/name's own ` + config.DefaultPath + `
from its default branch) the file is also merged with its base, and every
refusal of the merge (a repository that would drop an inherited owner, loosen
an inherited exemption, ...) is a problem. --resolved prints the effective
policy after "ok": every key, its value and where it came from (base,
repository, base + repository, default). With --repo the token comes from
--token-file (a file you own, mode 0600), else GH_TOKEN or GITHUB_TOKEN.

--format json prints {file, valid, problems: [{file, line, column, field,
message}]} instead, with base and resolved: [{key, value, source}] under
--resolved.

Exit codes: 0 valid; 1 invalid, or refused by the merge; 2 unreadable, too
large or missing (the base too, or --resolved of a file that extends a base
neither --base nor --repo gives); 3 GitHub unreachable (--repo); 130
interrupted.`
