// Command aepgate-demo runs the real aepgate App against a simulated GitHub
// in one process (package cmd/internal/demo, docs/demo.md). It is a binary of
// its own so that aepgate, the product, links no fake GitHub and starts
// without initialising the packages only the demo uses.
package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/cmd/internal/appcmd"
	"github.com/aepgate/aepgate/cmd/internal/cli"
	"github.com/aepgate/aepgate/cmd/internal/demo"
)

// version is set at link time (-ldflags "-X main.version=v1.2.3"), as the
// release sets it.
var version = ""

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes one command line and returns the exit code, as aepgate's
// commands do (cli.Execute): tests call it with buffers.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmd := newDemoCmd(stdout)
	cmd.SetVersionTemplate("aepgate-demo {{.Version}}\n")
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	return cli.Execute(ctx, cmd, args, stderr)
}

// demoFlags are demo's options.
type demoFlags struct {
	out, speed, scenario string
}

// demoLong is the command's --help.
var demoLong = `aepgate-demo runs the real aepgate App — the same code as 'aepgate serve', its River
queue on an embedded SQLite database, the same check runs — against a simulated
GitHub inside this process, and plays a scripted story through signed webhooks.
Nothing is sent to github.com and nothing outside --out is kept: the App gets a
throwaway key and webhook secret and listens on a loopback port.

Scenarios:
  happy    (default) one increment from its first issue to its increment
           certificate: a milestone with two stories, a pull request naming
           its unit, the Action's checks, a contract change the owner
           approves, the owner's HOLD, a coordinator's refused RESUME, the
           owner's RESUME, an audit FAIL with a quoted finding, the
           correction, an independent PASS, the merge, the readback on main,
           the certificate, 'certificate fetch'; both stories closed and
           counted done, the demonstration, the increment certificate and
           'certificate fetch --increment'; a production deploy of the
           integrated commit behind the owner's gate; and a release that
           closes.
  attacks  a coordinator closing a dependency without evidence, a forged
           webhook, a non-owner resolving a gate, a Bot named like the owner,
           an edited command, a stale audit, a pull-request CI run offered as
           the readback and a deploy of an uncertified commit: each refused,
           with the refusal shown.
  outage   the happy story while GitHub answers 502 and secondary rate limits
           to the App for a while: it catches up and duplicates nothing.
Each scenario ends with the owner's board: the App's pinned 'aepgate board'
issue showing the story certified (docs/board.md).

Each step prints one line as it happens: what happened and which check runs
changed, to what. At the end: webhook deliveries, the App's GitHub reads and
writes per check run, and the wall time. The report is written to --out:
index.html (self-contained: open it in a browser, no network needed) with the
timeline, every check run as GitHub would show it, the board issue, the ledger
with 'ledger verify''s verdict and the certificate; timeline.json (the same, versioned);
app.log (the App's JSON log).

--speed fast shrinks the App's pause between writes, retry base, queue poll
interval and board delay so a scenario takes seconds; real keeps 'aepgate serve''s defaults.

Exit codes: 0 the scenario ended as it must; 1 it did not (the report says
what differs); 2 a bad flag.`

func newDemoCmd(out io.Writer) *cobra.Command {
	var f demoFlags
	cmd := &cobra.Command{
		Use:   "aepgate-demo [--out DIR] [--speed fast|real] [--scenario happy|attacks|outage]",
		Short: "Try the App without registering one: the real App against a simulated GitHub, in-process",
		Long:  demoLong,
		Example: `  aepgate-demo
  aepgate-demo --scenario attacks --out /tmp/aepgate-demo-report
  go run ./cmd/aepgate-demo --scenario outage --speed real`,
		Args:          cobra.NoArgs,
		Version:       cli.Version(version),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE:          func(cmd *cobra.Command, _ []string) error { return runDemo(cmd.Context(), out, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.out, "out", "aepgate-demo-report", "folder the report is written to (created if missing)")
	fl.StringVar(&f.speed, "speed", string(demo.Fast), "fast or real")
	fl.StringVar(&f.scenario, "scenario", "happy", "happy, attacks or outage")
	return cmd
}

func runDemo(ctx context.Context, progress io.Writer, f demoFlags) error {
	out, err := filepath.Abs(f.out)
	if err != nil {
		return cli.Fail(2, "demo: --out %q: %w", f.out, err)
	}
	res, err := demo.Run(ctx, demo.Options{Out: out, Speed: demo.Speed(f.speed), Scenario: f.scenario, Progress: progress, CLI: selfCLI})
	switch {
	case errors.Is(err, demo.ErrUsage):
		return cli.Fail(2, "%v (see 'aepgate-demo --help')", err)
	case err != nil:
		return cli.Fail(1, "%v", err)
	case len(res.Problems) > 0:
		return cli.Fail(1, "demo: the %s scenario did not end as it must (%d problems; see %s)", f.scenario, len(res.Problems), filepath.Join(out, "index.html"))
	}
	return nil
}

// selfCLI runs one aepgate command line in-process, as the aepgate-app
// binary would: the demo's 'certificate fetch' and 'ledger verify' are the
// real commands (cmd/internal/cli, cmd/internal/appcmd).
func selfCLI(ctx context.Context, args []string) (string, string, int) {
	var out, errb bytes.Buffer
	code := appcmd.Run(ctx, args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}
