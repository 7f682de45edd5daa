package appcmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/cmd/internal/cli"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/readfile"
)

// simulateFlags are simulate's options.
type simulateFlags struct {
	repo, config, tokenFile, githubURL, appSlug, format string
	pr                                                  int
}

func newSimulateCmd(s streams) *cobra.Command {
	var fl simulateFlags
	cmd := &cobra.Command{
		Use:   "simulate --repo owner/name --pr N [--config FILE] [flags]",
		Short: cli.SimulateShort,
		Long: `Reads one open pull request as the App does (one snapshot, the reviewers'
and owners' live roles, the files each audit quotes) and judges it with the
App's own checks, under the repository's .github/aepgate.yml on its default
branch or under --config FILE instead: what a new policy would do before it is
merged. A config that extends an organization's base is judged merged with
it, the base read from its repository's default branch as the App reads it. It prints every check run the App would publish — aepgate/work-unit,
aepgate/audit, aepgate/gates, aepgate/merge, aepgate/config — with its
conclusion, title and summary (a config with mode: advisory shows them
neutral, as the App would).

Nothing is written: the client refuses every REST write and GraphQL mutation
before it is sent. A simulation knows only what GitHub shows, not what the App
itself keeps: decisions the App kept (a HOLD edited after the App kept it
counts as GitHub now shows it), who pushed which commit (the App records it
from push events) and the closures it judged (a closed dependency blocks here,
and a closed story holds its WIP lane) are unknown, so aepgate/gates,
aepgate/audit and aepgate/work-unit may differ from the App's where those
matter.

The token comes from --token-file (a file you own, mode 0600), else from
GH_TOKEN or GITHUB_TOKEN; it needs read access to the repository's contents,
issues and pull requests.

Exit codes: 0 judged and printed; 2 bad usage, an unreadable --config or
token, a pull request that is not open, or GitHub refusing the read; 3
GitHub unreachable; 130 interrupted.`,
		Example: `  aepgate simulate --repo acme/app --pr 42
  aepgate simulate --repo acme/app --pr 42 --config new-policy.yml --format json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return simulate(c, s, fl) },
	}
	f := cmd.Flags()
	f.StringVar(&fl.repo, "repo", "", "repository as owner/name (required)")
	f.IntVar(&fl.pr, "pr", 0, "pull request number (required)")
	f.StringVar(&fl.config, "config", "", "judge under this config file instead of the default branch's .github/aepgate.yml")
	f.StringVar(&fl.tokenFile, "token-file", "", "file holding a GitHub token (mode 0600, owned by you); default: GH_TOKEN, then GITHUB_TOKEN")
	f.StringVar(&fl.githubURL, "github-url", "", "GitHub API root for GitHub Enterprise Server (default https://api.github.com/)")
	f.StringVar(&fl.appSlug, "app-slug", "aepgate", "slug of the installed aepgate App, whose own comments (status, replies) are found by its login <slug>[bot]")
	cli.AddFormat(cmd, &fl.format)
	_ = cmd.MarkFlagRequired("repo")
	_ = cmd.MarkFlagRequired("pr")
	return cmd
}

func simulate(c *cobra.Command, s streams, fl simulateFlags) error {
	runs, err := simulateRuns(c.Context(), fl)
	if err != nil {
		return err
	}
	if fl.format == "json" {
		return printSimulationJSON(s.out, runs)
	}
	printSimulation(s.out, runs)
	return nil
}

// simulateRuns judges the pull request fl names, read-only; its error is
// the command's (exit 2, or 3 when GitHub is unreachable). aepgate mcp's
// what_blocks judges through it too.
func simulateRuns(ctx context.Context, fl simulateFlags) ([]checks.Run, error) {
	sim, token, err := simulateUsage(ctx, fl)
	if err != nil {
		return nil, cli.Fail(2, "simulate: %w", err)
	}
	src, err := gh.NewReadInstallation(fl.githubURL, token)
	if err != nil {
		return nil, cli.Fail(2, "simulate: %w", err)
	}
	runs, err := pull.Simulate(ctx, src, sim)
	if err != nil {
		return nil, cli.Fail(cli.NetworkCode(err, cli.ExitUsage), "simulate: %s#%d: %w", fl.repo, fl.pr, err)
	}
	if runs == nil {
		return nil, cli.Fail(2, "simulate: %s#%d is not an open pull request", fl.repo, fl.pr)
	}
	return runs, nil
}

// simulateUsage checks the flags before any request, reads --config and
// the token, and names the simulation.
func simulateUsage(ctx context.Context, fl simulateFlags) (pull.Simulation, string, error) {
	switch {
	case !cli.OwnerName().MatchString(fl.repo):
		return pull.Simulation{}, "", fmt.Errorf("--repo %q is not owner/name", fl.repo)
	case fl.pr <= 0:
		return pull.Simulation{}, "", fmt.Errorf("--pr %d is not a pull request number", fl.pr)
	}
	owner, name, _ := strings.Cut(fl.repo, "/")
	sim := pull.Simulation{Owner: owner, Repo: name, PR: fl.pr, AppLogin: fl.appSlug + "[bot]"}
	if fl.config != "" {
		b, err := readfile.File(ctx, fl.config, readfile.Config)
		if err != nil {
			return pull.Simulation{}, "", fmt.Errorf("--config: %w", err)
		}
		sim.Config = b
	}
	token, err := cli.SimulateToken(fl.tokenFile)
	return sim, token, err
}

// printSimulation writes each run: its name, conclusion and title, then
// its summary indented.
func printSimulation(w io.Writer, runs []checks.Run) {
	for i, r := range runs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s: %s — %s\n", r.Name, string(r.Conclusion), r.Title)
		for _, line := range strings.Split(strings.TrimRight(r.Summary, "\n"), "\n") {
			fmt.Fprintln(w, strings.TrimRight("    "+line, " "))
		}
	}
}

// simulatedRun is one run in --format json.
type simulatedRun struct {
	Name       string `json:"name"`
	Conclusion string `json:"conclusion"`
	Title      string `json:"title"`
	Summary    string `json:"summary"`
}

func printSimulationJSON(w io.Writer, runs []checks.Run) error {
	out := make([]simulatedRun, 0, len(runs))
	for _, r := range runs {
		out = append(out, simulatedRun{Name: r.Name, Conclusion: string(r.Conclusion), Title: r.Title, Summary: r.Summary})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return cli.Fail(2, "simulate: %w", err)
	}
	return nil
}

// simulateFor is simulate's judgement for aepgate mcp's what_blocks.
func simulateFor(ctx context.Context, sim cli.Simulation) ([]checks.Run, error) {
	return simulateRuns(ctx, simulateFlags{repo: sim.Repo, pr: sim.PR, config: sim.Config, githubURL: sim.GitHubURL, appSlug: sim.AppSlug})
}

// simulationText is simulate's text of runs.
func simulationText(runs []checks.Run) string {
	var b strings.Builder
	printSimulation(&b, runs)
	return b.String()
}
