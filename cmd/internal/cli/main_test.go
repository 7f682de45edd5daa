package cli

import (
	"bytes"
	"context"
	"slices"
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

// TestAppCommandsRunAepgateApp: aepgate's own tree has serve, ledger,
// simulate and app, with aepgate-app's one-line help, and they take every
// argument unread; without an aepgate-app beside the binary each ends with
// exit 2 and says where to get it.
func TestAppCommandsRunAepgateApp(t *testing.T) {
	lean, full := NewRoot("", nil, nil, nil, nil), NewRoot("", TestApp, nil, nil, nil)
	for _, name := range []string{"serve", "ledger", "simulate", "app"} {
		t.Run(name, func(t *testing.T) {
			l, _, err := lean.Find([]string{name})
			if err != nil {
				t.Fatal(err)
			}
			f, _, err := full.Find([]string{name})
			if err != nil {
				t.Fatal(err)
			}
			if l.Short != f.Short || !l.DisableFlagParsing || l == f {
				t.Errorf("aepgate's %s: short %q (aepgate-app's %q), flags unread %v", name, l.Short, f.Short, l.DisableFlagParsing)
			}
			var out, errb bytes.Buffer
			code := Run(context.Background(), []string{name, "--help"}, strings.NewReader(""), &out, &errb)
			if code != exitUsage || out.Len() != 0 || !strings.Contains(errb.String(), "runs aepgate-app, which is not next to this binary") {
				t.Errorf("without aepgate-app: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
			}
		})
	}
}

// TestRootForBuildsWhatTheLineNames: a command line whose first word is a
// command gets a tree of that command alone, "--version" alone none, and
// anything else every command; every top-level command of the full tree
// is one rootFor knows by name, so none is reached only through the full
// tree.
func TestRootForBuildsWhatTheLineNames(t *testing.T) {
	full := NewRoot("", TestApp, nil, nil, nil)
	var all []string
	for _, c := range full.Commands() {
		all = append(all, c.Name())
	}
	slices.Sort(all)
	known := slices.Sorted(slices.Values(commandNames))
	if !slices.Equal(all, known) {
		t.Fatalf("top-level commands %q, rootFor knows %q", all, known)
	}
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"--version"}, nil},
		{[]string{"-v"}, nil},
		{[]string{"lint", "docs/run"}, []string{"lint"}},
		{[]string{"serve", "--help"}, []string{"app", "ledger", "mcp", "serve", "simulate"}}, // the App's are made together
		{[]string{"--help"}, all},
		{[]string{"help", "lint"}, all},
		{[]string{"lnt"}, all},
		{[]string{"--version", "lint"}, all},
		{nil, all},
	}
	for _, tt := range tests {
		var got []string
		for _, c := range rootFor("", TestApp, tt.args, nil, nil, nil).Commands() {
			got = append(got, c.Name())
		}
		slices.Sort(got)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: commands %q, want %q", tt.args, got, tt.want)
		}
	}
}
