package cli

import (
	"io"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// Version returns linked, the version set at link time (-ldflags
// "-X main.version=v1.2.3" in cmd/aepgate and cmd/aepgate-demo), when there
// is one; otherwise the module's version from the build information, else
// "devel".
func Version(linked string) string {
	if linked != "" {
		return linked
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// streams are the standard streams every command writes to; commands never
// touch os.Stdout or os.Stderr directly. version is what --version and
// 'aepgate version' print.
type streams struct {
	in       io.Reader
	out, err io.Writer
	version  string
}

// rootLong is the command's --help.
var rootLong = `aepgate checks the Auditor/Executor protocol's evidence. One binary has three
faces:

  CLI     lints and cross-checks run documents, watches negative controls fail
          and pass, validates the repository config and completion certificate
          files, checks an audit review before it is posted, replays
          owner-gate event files, verifies release closure.
  Action  (aepgate action) reports lint, status, negative controls and the
          worker's report as check runs on a pull request, and release closure
          in release workflows.
  App     (aepgate serve) keeps the aepgate/work-unit, aepgate/audit,
          aepgate/gates (owner gates and HOLD, answered in comments and
          reviews), aepgate/merge and aepgate/config check runs on every open
          pull request, reads merges back and posts completion certificates,
          and verifies release closure.`

// NewRoot is the command tree of a binary: every command of this package,
// and the App's from side (see App); those side does not give run
// aepgate-app.
func NewRoot(linked string, side *App, stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	return newRoot(linked, side, stdin, stdout, stderr, nil)
}

// rootFor is the tree a command line needs. Making a command (its flags,
// its help) is most of what the process does before it runs one, so when
// the first word names a command, the tree holds that command alone (the
// App's four, which App.Commands makes together, for one of them), and
// for "--version" alone, none; for anything else (help, a flag first, a
// word that is no command, shell completion) it holds every command, as
// NewRoot's, which help, suggestions and completion list.
func rootFor(linked string, side *App, args []string, stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	switch {
	case len(args) == 1 && (args[0] == "--version" || args[0] == "-v"):
		return newRoot(linked, side, stdin, stdout, stderr, func(string) bool { return false })
	case len(args) > 0 && slices.Contains(commandNames, args[0]):
		return newRoot(linked, side, stdin, stdout, stderr, func(name string) bool { return name == args[0] })
	}
	return NewRoot(linked, side, stdin, stdout, stderr)
}

// topCommand is one top-level command: its name and how it is made.
type topCommand struct {
	name string
	make func(streams) *cobra.Command
}

// commands are this package's top-level commands (the App's are
// appCommands'), in the order help lists them; commandNames also has the
// App's.
var (
	commands = []topCommand{
		{"init", newInitCmd}, {"lint", newLintCmd}, {"status", newStatusCmd}, {"board", newBoardCmd},
		{"negcontrol", newNegcontrolCmd}, {"config", newConfigCmd}, {"certificate", newCertificateCmd},
		{"gate", newGateCmd}, {"release", newReleaseCmd}, {"review", newReviewCmd}, {"action", newActionCmd},
		{"demo", func(streams) *cobra.Command { return newDemoMovedCmd() }}, {"healthcheck", newHealthcheckCmd},
		{"keys", newKeysCmd}, {"plans", newPlansCmd}, {"verify", newVerifyCmd},
		{"install-skill", newInstallSkillCmd}, {"version", newVersionCmd},
	}
	commandNames = append(names(commands), appCommandNames...)
)

// names are the commands' names.
func names(cs []topCommand) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.name
	}
	return out
}

// newRoot is the tree with the commands keep accepts (nil: every one).
func newRoot(linked string, side *App, stdin io.Reader, stdout, stderr io.Writer, keep func(string) bool) *cobra.Command {
	s := streams{in: stdin, out: stdout, err: stderr, version: Version(linked)}
	root := &cobra.Command{
		Use:           "aepgate",
		Short:         "Enforce the Auditor/Executor delivery protocol locally, in CI and on GitHub",
		Long:          rootLong,
		Version:       s.version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("aepgate {{.Version}}\n")
	root.SetHelpTemplate(helpTemplate())
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	for _, c := range commands {
		if keep == nil || keep(c.name) {
			root.AddCommand(c.make(s))
		}
	}
	if keep == nil || slices.ContainsFunc(appCommandNames, keep) {
		root.AddCommand(appCommands(s, side)...)
	}
	return root
}

// helpTemplate is cobra's help template followed by the exit-code table
// every command shares.
func helpTemplate() string {
	return `{{with (or .Long .Short)}}{{. | trimTrailingWhitespaces}}

{{end}}{{if or .Runnable .HasSubCommands}}{{.UsageString}}{{end}}
` + exitTable()
}

// newDemoMovedCmd answers 'aepgate demo', which earlier versions had: the
// demo is the binary aepgate-demo, so that this one links no simulated
// GitHub (docs/demo.md). Hidden from --help; exit 2.
func newDemoMovedCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "demo",
		Short: "Moved: the demo is the binary aepgate-demo",
		Long: `demo says where the demo went: it is the binary aepgate-demo, released in
archives of its own and installed with 'go install
github.com/aepgate/aepgate/cmd/aepgate-demo@<version>' (docs/demo.md).

Exit codes: 2 always.`,
		Hidden:             true,
		DisableFlagParsing: true,
		RunE: func(*cobra.Command, []string) error {
			return failf(2, "the demo is a binary of its own: aepgate-demo (release archives aepgate-demo_<version>_<os>_<arch>; 'go install github.com/aepgate/aepgate/cmd/aepgate-demo@<version>'; or 'go run ./cmd/aepgate-demo' in a checkout); see docs/demo.md")
		},
	}
}

// group makes cmd a parent of subs that fails with exit 2 when run without
// one of them: a typo such as "certificate valdate" must not print help and
// exit 0 in a CI step.
func group(cmd *cobra.Command, subs ...*cobra.Command) *cobra.Command {
	names := make([]string, len(subs))
	for i, sub := range subs {
		names[i] = sub.Name()
	}
	cmd.Args = cobra.NoArgs
	cmd.RunE = func(c *cobra.Command, _ []string) error {
		return failf(2, "name a subcommand: %s (see '%s --help')", strings.Join(names, ", "), c.CommandPath())
	}
	cmd.AddCommand(subs...)
	return cmd
}
