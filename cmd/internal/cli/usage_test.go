package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

// TestNegcontrolTimeoutAcceptsGoDurations: --timeout takes what the
// config's timeout: takes, Go durations and seconds alike.
func TestNegcontrolTimeoutAcceptsGoDurations(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		err  bool
	}{
		{"2m", 2 * time.Minute, false},
		{"90s", 90 * time.Second, false},
		{"1h30m", 90 * time.Minute, false},
		{"120", 120 * time.Second, false},
		{"0.3", 300 * time.Millisecond, false},
		{"1e2", 100 * time.Second, false},
		{"24h", 24 * time.Hour, false},
		{"0", 0, true},
		{"0s", 0, true},
		{"-5s", 0, true},
		{"25h", 0, true},
		{"90000", 0, true},
		{"NaN", 0, true},
		{"soon", 0, true},
	} {
		cmd := newNegcontrolCmd(streams{})
		if err := cmd.Flags().Parse([]string{"--timeout", tc.in}); err != nil {
			t.Fatal(err)
		}
		got, err := timeoutFlag(cmd, tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("--timeout %s = %v, %v; want %v (error %v)", tc.in, got, err, tc.want, tc.err)
		}
	}
}

// TestArgumentCountErrorsEndWithTheHelpHint: a wrong number of arguments
// ends like a flag error, naming the command's --help.
func TestArgumentCountErrorsEndWithTheHelpHint(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"lint"}, "(see 'aepgate lint --help')\n"},
		{[]string{"lint", "a", "b"}, "(see 'aepgate lint --help')\n"},
		{[]string{"config", "validate", "a", "b"}, "(see 'aepgate config validate --help')\n"},
		{[]string{"certificate", "validate"}, "(see 'aepgate certificate validate --help')\n"},
		{[]string{"negcontrol", "extra"}, "(see 'aepgate negcontrol --help')\n"},
		{[]string{"serve", "extra"}, "(see 'aepgate serve --help')\n"},
	} {
		code, out, errOut := runCLI(t, tc.args...)
		if code != 2 || out != "" || !strings.HasPrefix(errOut, "error: ") || !strings.HasSuffix(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line ending %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestHelpUsesOneExitCodesHeading: every command that runs says what its
// exit codes are under the same "Exit codes:" heading.
func TestHelpUsesOneExitCodesHeading(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		if !c.Runnable() || c.Name() == "help" || c.Name() == "completion" || c.HasSubCommands() {
			return
		}
		if !strings.Contains(c.Long, "\nExit codes: ") {
			t.Errorf("%s: --help has no \"Exit codes:\" paragraph", c.CommandPath())
		}
		for _, other := range []string{"Exit status", "\nExit 0", "exit codes:"} {
			if strings.Contains(c.Long, other) {
				t.Errorf("%s: --help says %q; use \"Exit codes:\"", c.CommandPath(), other)
			}
		}
	}
	walk(NewRoot("", TestApp, nil, nil, nil))
}
