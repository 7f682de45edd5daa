package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/golden"
)

func TestConfigValidate(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yml")
	bad := filepath.Join(dir, "bad.yml")
	os.WriteFile(good, []byte("version: 1\nowners: [alice]\n"), 0o644)
	os.WriteFile(bad, []byte("version: 2\nowners: alice\nrisk:\n  default: extreme\nnegative_controls:\n  - name: a\n    test: t\n    timeout: soon\n"), 0o644)
	tests := []struct {
		name     string
		args     []string
		wantExit int
		wantOut  string
		wantErr  string
	}{
		{"ok", []string{"config", "validate", good}, 0, good + ": ok\n", ""},
		{"errors", []string{"config", "validate", bad}, 1, "", ""},
		{"missing", []string{"config", "validate", filepath.Join(dir, "nope.yml")}, 2, "", "nope.yml: not found\n"},
		{"two files", []string{"config", "validate", good, bad}, 2, "", "error: accepts at most 1 arg"},
		{"no subcommand", []string{"config"}, 2, "", "error: name a subcommand: validate"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, tc.args...)
			if code != tc.wantExit || !strings.Contains(out, tc.wantOut) || !strings.Contains(errs, tc.wantErr) {
				t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
			}
			if tc.name == "errors" {
				golden.CheckString(t, filepath.Join("testdata", "negcontrol", "config-errors.golden"), strings.ReplaceAll(out, dir, "<dir>"))
			}
		})
	}
}

func TestConfigValidateDefaultPath(t *testing.T) {
	dir := ncRepo(t, "version: 1\n")
	t.Chdir(dir)
	code, out, errs := runCLI(t, "config", "validate")
	if code != 0 || out != ".github/aepgate.yml: ok\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestConfigValidateCoordinatorScope: config validate accepts the
// coordinators scope map and shows its authoritative coordinator with
// --resolved; two coordinators in the scope are refused at their place.
func TestConfigValidateCoordinatorScope(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one.yml")
	two := filepath.Join(dir, "two.yml")
	os.WriteFile(one, []byte("version: 1\nowners: [olivia]\ncoordinators: {\"*\": [cody]}\n"), 0o644)
	os.WriteFile(two, []byte("version: 1\nowners: [olivia]\ncoordinators: {\"*\": [cody, dana]}\n"), 0o644)
	if code, out, errs := runCLI(t, "config", "validate", one, "--resolved"); code != 0 || !strings.Contains(out, `coordinator: "cody"  # repository`) {
		t.Errorf("exit %d, stdout %q, stderr %q; want the authoritative coordinator shown", code, out, errs)
	}
	want := two + ":3:21: coordinators[*]: must name exactly one authoritative coordinator (craft allows one per scope), not 2"
	if code, out, errs := runCLI(t, "config", "validate", two); code != 1 || !strings.Contains(out, want) {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and %q", code, out, errs, want)
	}
}
