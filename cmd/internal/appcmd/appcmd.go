// Package appcmd holds the commands that link the App's libraries (River,
// pgx, the SQLite port, Prometheus's client, the MCP SDK): serve, ledger,
// simulate and mcp, and the App's webhook events for 'app manifest' and 'app register'. Only
// cmd/aepgate-app links it; aepgate (cmd/aepgate) runs aepgate-app for
// these commands, so that its own start initialises none of those
// libraries (docs/run-documents.md, "Speed and memory").
package appcmd

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/cmd/internal/cli"
	"github.com/aepgate/aepgate/cmd/internal/mcpserve"
)

// streams are the standard streams the commands write to, and the
// version serve logs.
type streams struct {
	in       io.Reader
	out, err io.Writer
	version  string
}

// Side is what aepgate-app adds to package cli's command line.
func Side() *cli.App {
	return &cli.App{Commands: commands, Events: app.Events, Simulate: simulateFor, SimulationText: simulationText, ServeMCP: mcpserve.Run}
}

func commands(in io.Reader, out, err io.Writer, version string) []*cobra.Command {
	s := streams{in: in, out: out, err: err, version: version}
	return []*cobra.Command{newServeCmd(s), newLedgerCmd(s), newSimulateCmd(s)}
}

// Main runs aepgate-app's command line and returns its exit code.
func Main(version string) int { return cli.Main(version, Side()) }

// Run executes one command line of aepgate-app in-process and returns its
// exit code: tests and the demo call it with buffers.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.RunWith(ctx, Side(), args, stdin, stdout, stderr)
}
