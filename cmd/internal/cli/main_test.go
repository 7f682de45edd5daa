package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/skipline"
)

// TestMain prints one line when tests skipped for want of a tool (the SARIF
// multitool, Chromium), shown without -v.
func TestMain(m *testing.M) { skipline.Main(m) }

// runCLI runs the CLI with empty stdin and buffered output, and returns
// the exit code, stdout and stderr.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runFull(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestVersion(t *testing.T) {
	code, out, errOut := runCLI(t, "--version")
	if want := "aepgate " + Version("") + "\n"; code != 0 || out != want || errOut != "" {
		t.Errorf("--version: exit %d, stdout %q, stderr %q; want exit 0, stdout %q, no stderr", code, out, errOut, want)
	}
}

func TestHelp(t *testing.T) {
	code, out, errOut := runCLI(t, "--help")
	if code != 0 || errOut != "" {
		t.Errorf("--help: exit %d, stderr %q; want exit 0 and no stderr", code, errOut)
	}
	for _, want := range []string{"Usage:", "aepgate [command]", "lint", "--version"} {
		if !strings.Contains(out, want) {
			t.Errorf("--help output lacks %q:\n%s", want, out)
		}
	}
}

func TestUnknownFlag(t *testing.T) {
	code, out, errOut := runCLI(t, "--no-such-flag")
	if code != 2 || out != "" {
		t.Errorf("unknown flag: exit %d, stdout %q; want exit 2 and no stdout", code, out)
	}
	if want := "error: unknown flag: --no-such-flag (see 'aepgate --help')\n"; errOut != want {
		t.Errorf("unknown flag: stderr %q, want %q", errOut, want)
	}
}

// A parent command run bare or with a mistyped subcommand is a usage error:
// printing help and exiting 0 would let a typo in a CI step pass.
func TestGroupNeedsSubcommand(t *testing.T) {
	for _, args := range [][]string{
		{"certificate"}, {"certificate", "valdate", "x.json"},
		{"gate"}, {"gate", "evaluate"},
		{"release"}, {"release", "verfy"},
		{"config"}, {"config", "check"},
		{"ledger"}, {"ledger", "verfy"},
	} {
		code, out, errOut := runCLI(t, args...)
		if code != 2 || out != "" || !strings.HasPrefix(errOut, "error: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2, no stdout, an error on stderr", args, code, out, errOut)
		}
	}
}

// TestDemoMoved: 'aepgate demo', with or without the flags the demo takes,
// says where the demo is and exits 2; --help does not list it.
func TestDemoMoved(t *testing.T) {
	for _, args := range [][]string{{"demo"}, {"demo", "--scenario", "attacks"}} {
		code, out, errOut := runCLI(t, args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "aepgate-demo") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 naming aepgate-demo", args, code, out, errOut)
		}
	}
	if _, out, _ := runCLI(t, "--help"); strings.Contains(out, "demo") {
		t.Errorf("--help lists the demo:\n%s", out)
	}
}
