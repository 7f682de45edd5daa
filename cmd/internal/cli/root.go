package cli

import (
	"io"
	"runtime/debug"
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
	root.SetHelpTemplate(helpTemplate)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(
		newInitCmd(s),
		newLintCmd(s),
		newStatusCmd(s),
		newBoardCmd(s),
		newNegcontrolCmd(s),
		newConfigCmd(s),
		newCertificateCmd(s),
		newGateCmd(s),
		newReleaseCmd(s),
		newReviewCmd(s),
		newActionCmd(s),
		newDemoMovedCmd(),
		newHealthcheckCmd(s),
		newKeysCmd(s),
		newPlansCmd(s),
		newVerifyCmd(s),
		newInstallSkillCmd(s),
		newVersionCmd(s),
	)
	root.AddCommand(appCommands(s, side)...)
	return root
}

// helpTemplate is cobra's help template followed by the exit-code table
// every command shares.
var helpTemplate = `{{with (or .Long .Short)}}{{. | trimTrailingWhitespaces}}

{{end}}{{if or .Runnable .HasSubCommands}}{{.UsageString}}{{end}}
` + exitTable()

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
