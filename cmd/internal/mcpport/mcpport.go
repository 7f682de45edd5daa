// Package mcpport is what the tools of `aepgate mcp` (package
// cmd/internal/mcpserve) run: the command line's own code paths, which the
// composition root (package cli) supplies. It imports no MCP SDK, so that
// aepgate, which serves no MCP itself (it runs aepgate-app for `mcp`),
// links and initialises none of it.
package mcpport

import (
	"context"

	"github.com/aepgate/aepgate/checks"
)

// Output is one command line's run: what it printed and its exit code.
type Output struct {
	Stdout, Stderr string
	Code           int
}

// Simulation names one pull request "what blocks" judges.
type Simulation struct {
	// Repo is owner/name; PR the pull request's number; Config a local
	// config file to judge under instead of the repository's ("" for the
	// repository's own).
	Repo   string
	PR     int
	Config string
}

// CLI is what the tools run: the command line's own code paths, supplied
// by the composition root.
type CLI interface {
	// Run runs one aepgate command line in-process with stdin, as the
	// binary would.
	Run(ctx context.Context, stdin string, args ...string) Output
	// Simulate judges a pull request read-only as `aepgate simulate`
	// does, with its token and GitHub; its error is the command's
	// message.
	Simulate(ctx context.Context, s Simulation) ([]checks.Run, error)
	// RunsText prints check runs as `aepgate simulate` prints them.
	RunsText(runs []checks.Run) string
}
