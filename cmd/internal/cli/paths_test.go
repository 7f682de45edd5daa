package cli

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestLintStatusReportDocumentLinkedOutsideTheRun: a run document that is
// a symlink out of the run folder is read, and lint and status say so on
// stderr without changing their exit codes or stdout.
func TestLintStatusReportDocumentLinkedOutsideTheRun(t *testing.T) {
	base := t.TempDir()
	run := filepath.Join(base, "run")
	if code, _, errOut := runCLI(t, "init", run); code != 0 {
		t.Fatalf("init: exit %d: %s", code, errOut)
	}
	_, lintBefore, _ := runCLI(t, "lint", run)
	_, statusBefore, _ := runCLI(t, "status", run)
	log := filepath.Join(run, "compliance-log.md")
	moved := filepath.Join(base, "elsewhere.md")
	if err := os.Rename(log, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(moved, log); err != nil {
		if runtime.GOOS == "windows" {
			t.Skipf("symlinks unavailable: %v", err)
		}
		t.Fatal(err) // every unix has symlinks: never skip this check
	}
	for _, tc := range []struct {
		cmd      string
		wantCode int
		wantOut  string
	}{{"lint", 0, lintBefore}, {"status", 0, statusBefore}} {
		code, out, errOut := runCLI(t, tc.cmd, run)
		if code != tc.wantCode || out != tc.wantOut {
			t.Errorf("%s: exit %d, stdout changed=%v; want exit %d and the same stdout", tc.cmd, code, out != tc.wantOut, tc.wantCode)
		}
		want := "warning: " + log + " is a symlink to "
		if !strings.Contains(errOut, want) || !strings.Contains(errOut, "outside "+run+"; it is read all the same.") {
			t.Errorf("%s: stderr %q lacks %q", tc.cmd, errOut, want)
		}
	}
}

// TestErrorPathsAreQuoted: a newline in a path cannot forge a line of
// output: each error is one line, the path Go-quoted.
func TestErrorPathsAreQuoted(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows file names cannot hold a newline")
	}
	dir := filepath.Join(t.TempDir(), "run\nerror: forged")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"lint", dir},
		{"status", dir},
		{"config", "validate", filepath.Join(dir, "aepgate.yml")},
		{"gate", "eval", filepath.Join(dir, "events.json"), "--action", "merge"},
		{"certificate", "validate", filepath.Join(dir, "c.json")},
		{"init", filepath.Join(dir, "file")},
	} {
		if args[0] == "init" {
			os.WriteFile(args[1], nil, 0o644)
		}
		code, _, errOut := runCLI(t, args...)
		if code != 2 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, `run\nerror: forged`) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line with the path quoted", args[:2], code, errOut)
		}
	}
}
