package cli

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/cmd/internal/mcpport"
)

const mcpLong = `mcp serves aepgate's checks to coding agents (Claude Code, Codex, Cursor and any
other Model Context Protocol client) over standard input and output, one
JSON-RPC message a line, until the client closes standard input. The agent
starts it; 'aepgate install-skill --mcp' writes each agent's configuration
(docs/mcp.md).

Tools, each returning the command's text and its --format json as
structured output:

  lint           aepgate lint <dir>
  status         aepgate status <dir>
  review_check   aepgate review check of a draft review (text or file)
  plans_verify   aepgate plans verify <dir> (never --rerun)
  report_check   the Action's aep/report check of a draft pull request
                 description's worker report
  what_blocks    aepgate simulate of an open pull request, with the next step
                 each blocking check names

A tool that cannot do its work (a missing folder, no token, bad input)
answers with a tool error saying what was wrong. Nothing is written to
GitHub: what_blocks reads through the client simulate uses, which refuses
every write. Its token comes from GH_TOKEN, else GITHUB_TOKEN, in this
process's environment.

--format sets the log lines written to standard error (text or json): one
per tool call, its name, duration and whether it failed; never its
arguments or its output.

Exit codes: 0 the client closed the connection; 2 a bad flag, or the
connection failed; 130 interrupted.`

// mcpFlags are mcp's options.
type mcpFlags struct {
	githubURL, appSlug, format string
}

// mcpShort is mcp's one line.
const mcpShort = "Serve aepgate's checks to coding agents over the Model Context Protocol (stdio)"

func newMCPCmd(s streams, side *App) *cobra.Command {
	var fl mcpFlags
	cmd := &cobra.Command{
		Use:   "mcp [--github-url URL] [--app-slug SLUG]",
		Short: mcpShort,
		Long:  mcpLong,
		Example: `  aepgate mcp
  claude mcp add aepgate -- aepgate mcp`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return serveMCP(c.Context(), s, fl, side) },
	}
	f := cmd.Flags()
	f.StringVar(&fl.githubURL, "github-url", "", "GitHub API root for GitHub Enterprise Server, for what_blocks (default https://api.github.com/)")
	f.StringVar(&fl.appSlug, "app-slug", "aepgate", "slug of the installed aepgate App, for what_blocks (as simulate's --app-slug)")
	addFormat(cmd, &fl.format)
	cmd.Flags().Lookup("format").Usage = "log format on standard error: text or json"
	return cmd
}

// serveMCP checks the flags and serves until the client hangs up.
func serveMCP(ctx context.Context, s streams, fl mcpFlags, side *App) error {
	if fl.githubURL != "" {
		if u, err := url.Parse(fl.githubURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return failf(exitUsage, "mcp: --github-url %q is not an http(s) URL", fl.githubURL)
		}
	}
	log := slog.New(slog.NewTextHandler(s.err, nil))
	if fl.format == formatJSON {
		log = slog.New(slog.NewJSONHandler(s.err, nil))
	}
	err := side.ServeMCP(ctx, s.version, mcpCLI{version: s.version, flags: fl, side: side}, log, s.in, s.out)
	switch {
	case ctx.Err() != nil:
		return failf(exitInterrupted, "mcp: interrupted")
	case err != nil:
		return failf(exitUsage, "mcp: %w", err)
	}
	return nil
}

// mcpCLI is the command line the tools run: this package's commands, in
// process.
type mcpCLI struct {
	version string
	flags   mcpFlags
	side    *App
}

var _ mcpport.CLI = mcpCLI{}

func (m mcpCLI) Run(ctx context.Context, stdin string, args ...string) mcpport.Output {
	var out, errb bytes.Buffer
	code := Execute(ctx, rootFor(m.version, nil, args, strings.NewReader(stdin), &out, &errb), args, &errb)
	return mcpport.Output{Stdout: out.String(), Stderr: errb.String(), Code: code}
}

func (m mcpCLI) Simulate(ctx context.Context, s mcpport.Simulation) ([]checks.Run, error) {
	runs, err := m.side.Simulate(ctx, Simulation{Repo: s.Repo, PR: s.PR, Config: s.Config, GitHubURL: m.flags.githubURL, AppSlug: m.flags.appSlug})
	if err != nil {
		return nil, fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "simulate: "))
	}
	return runs, nil
}

func (m mcpCLI) RunsText(runs []checks.Run) string {
	return m.side.SimulationText(runs)
}
