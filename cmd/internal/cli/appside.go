package cli

import (
	"context"
	"io"
	"log/slog"
	"regexp"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/cmd/internal/mcpport"
	"github.com/aepgate/aepgate/protocol/attest"
)

// App is what a binary that links the App's libraries (River, pgx, the
// SQLite port, Prometheus's client) adds to this command line: aepgate-app
// (cmd/aepgate-app, package cmd/internal/appcmd) gives both. aepgate
// (cmd/aepgate) gives none, so that it initialises none of those libraries
// when it starts; its serve, ledger, simulate, app and mcp commands run
// aepgate-app instead (appexec.go).
type App struct {
	// Commands makes serve, ledger and simulate for the given streams.
	Commands func(in io.Reader, out, err io.Writer, version string) []*cobra.Command
	// Events are the webhook events the App subscribes to ('app
	// manifest' and 'app register' ask GitHub for them).
	Events func() []string
	// Simulate judges one pull request read-only as 'simulate' does, and
	// SimulationText prints its runs as 'simulate' does: aepgate mcp's
	// what_blocks answers through them.
	Simulate       func(ctx context.Context, sim Simulation) ([]checks.Run, error)
	SimulationText func(runs []checks.Run) string
	// ServeMCP serves aepgate mcp's tools, running c, on in and out until
	// the client closes in (mcpserve.Run): the MCP SDK is linked where it
	// is given, in aepgate-app only.
	ServeMCP func(ctx context.Context, version string, c mcpport.CLI, log *slog.Logger, in io.Reader, out io.Writer) error
}

// Simulation is one read-only judgement 'simulate' makes: its flags.
type Simulation struct {
	Repo, Config, GitHubURL, AppSlug string
	PR                               int
}

// What follows is the part of this package the App's commands (package
// cmd/internal/appcmd) use: the exit codes, --format, the environment and
// secret files, the signing flags, as every other command has them.

// Exit codes (the table every --help shows).
const (
	ExitFindings = exitFindings
	ExitUsage    = exitUsage
)

// Output formats.
const (
	FormatText = formatText
	FormatJSON = formatJSON
)

// ExitCode ends a command with code, printing nothing more.
func ExitCode(code int) error { return exitCode(code) }

// NetworkCode is the exit code for GitHub or the network not answering
// when err is that, otherwise other.
func NetworkCode(err error, other int) int { return networkCode(err, other) }

// AddFormat registers --format on cmd (text by default; json and the extra
// formats named), into p.
func AddFormat(cmd *cobra.Command, p *string, extra ...string) { addFormat(cmd, p, extra...) }

// FormatValue is a flag value refusing anything but allowed, into p.
func FormatValue(p *string, allowed ...string) pflag.Value {
	return &formatValue{p: p, allowed: allowed}
}

// Group makes cmd a parent of subs that fails with exit 2 without one.
func Group(cmd *cobra.Command, subs ...*cobra.Command) *cobra.Command { return group(cmd, subs...) }

// LookupFunc finds an environment variable, as os.LookupEnv does.
type LookupFunc = lookupFunc

// WithEnvFile is lookup, then the KEY=VALUE lines of the file at path.
func WithEnvFile(ctx context.Context, lookup LookupFunc, path string) (LookupFunc, error) {
	return withEnvFile(ctx, lookup, path)
}

// ReadSecretFile reads a key or secret file named by flag.
func ReadSecretFile(ctx context.Context, log *slog.Logger, flag, path string) ([]byte, error) {
	return readSecretFile(ctx, log, flag, path)
}

// Shown quotes a path for a message.
func Shown(path string) string { return shown(path) }

// ReadKeyring reads the trusted keys from whichever of the two files is
// given (--key or --jwks).
func ReadKeyring(ctx context.Context, keyFile, jwksFile string) (attest.Keyring, error) {
	return readKeyring(ctx, keyFile, jwksFile)
}

// OwnerName is the form of an owner/name repository, compiled on first use.
func OwnerName() *regexp.Regexp { return ownerName() }

// WriteJSON writes v as indented JSON without HTML escaping.
func WriteJSON(w io.Writer, v any) error { return writeJSON(w, v) }

// SimulateToken is the token from file, else GH_TOKEN, else GITHUB_TOKEN.
func SimulateToken(file string) (string, error) { return simulateToken(file) }

// RevocationsFlagUsage is the help of a --revocations flag.
const RevocationsFlagUsage = revocationsFlagUsage

// RevocationsRefused is a revocation list that did not verify (exit 1).
type RevocationsRefused = revocationsRefused

// WithRevocations marks ring's keys the signed revocation list at path
// names (none: ring as it is).
func WithRevocations(ctx context.Context, ring attest.Keyring, path string) (attest.Keyring, error) {
	return withRevocations(ctx, ring, path)
}
