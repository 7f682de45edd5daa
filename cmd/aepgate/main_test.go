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
