package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLinkedVersion builds the binary as the release does (-X
// main.version) and checks that --version and 'version --json' print the
// linked version: the flag reaches cmd/internal/cli through main.
func TestLinkedVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "aepgate")
	build := exec.Command("go", "build", "-ldflags", "-X main.version=v9.8.7", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--version"}, "aepgate v9.8.7\n"},
		{[]string{"version"}, "aepgate v9.8.7\n"},
		{[]string{"version", "--json"}, `"version": "v9.8.7"`},
	}
	for _, tt := range tests {
		out, err := exec.Command(bin, tt.args...).Output()
		if err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		if !strings.Contains(string(out), tt.want) {
			t.Errorf("%v printed %q, want %q", tt.args, out, tt.want)
		}
	}
}

// TestServeRunsAepgateApp builds aepgate and aepgate-app into one folder,
// as the release archives extract and the image holds them: 'aepgate
// serve' and the other App commands are aepgate-app's, their output and
// exit codes included. Negative control: aepgate alone refuses them with
// exit 2, naming aepgate-app.
func TestServeRunsAepgateApp(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both binaries")
	}
	dir, alone := t.TempDir(), t.TempDir()
	for _, b := range []struct{ out, pkg string }{
		{filepath.Join(dir, "aepgate"), "."}, {filepath.Join(dir, "aepgate-app"), "../aepgate-app"}, {filepath.Join(alone, "aepgate"), "."},
	} {
		if out, err := exec.Command("go", "build", "-o", b.out, b.pkg).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", b.pkg, err, out)
		}
	}
	tests := []struct {
		bin      string
		args     []string
		code     int
		want     string
		inStderr bool
	}{
		{dir, []string{"serve", "--help"}, 0, "serve runs the aepgate GitHub App", false},
		{dir, []string{"ledger", "verify", "--database", "sqlite:" + filepath.Join(dir, "absent.db")}, 2, "no database at", true},
		{dir, []string{"simulate", "--no-such-flag"}, 2, "see 'aepgate simulate --help'", true},
		{dir, []string{"app", "manifest", "--url", "https://aepgate.example.com"}, 0, `"default_events"`, false},
		{alone, []string{"serve", "--help"}, 2, "runs aepgate-app, which is not next to this binary", true},
	}
	for _, tt := range tests {
		cmd := exec.Command(filepath.Join(tt.bin, "aepgate"), tt.args...)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		got := out.String()
		if tt.inStderr {
			got = errb.String()
		}
		if code != tt.code || !strings.Contains(got, tt.want) {
			t.Errorf("%v in %s: exit %d, want %d with %q\nstdout %s\nstderr %s", tt.args, tt.bin, code, tt.code, tt.want, out.String(), errb.String())
		}
	}
}
