package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestInitCreatesRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ledger-api")
	code, out, errOut := runCLI(t, "init", dir)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	want := "wrote  " + filepath.Join(dir, "plan-of-record.md") + "\n" +
		"wrote  " + filepath.Join(dir, "execution-guide.md") + "\n" +
		"wrote  " + filepath.Join(dir, "compliance-log.md") + "\n" +
		"wrote  " + filepath.Join(dir, "annexes", ".gitkeep") + "\n" +
		"\n" + dir + "/ scaffolded. Read execution-guide.md's Rules of engagement first.\n"
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
	for _, name := range []string{"plan-of-record.md", "execution-guide.md", "compliance-log.md", "annexes/.gitkeep"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if strings.Contains(string(b), "{{PROJECT_NAME}}") {
			t.Errorf("%s still holds {{PROJECT_NAME}}", name)
		}
	}
	guide, _ := os.ReadFile(filepath.Join(dir, "execution-guide.md"))
	if !strings.HasPrefix(string(guide), "# ledger-api — Execution Guide\n") {
		t.Errorf("default name is not the folder's: %q", strings.SplitN(string(guide), "\n", 2)[0])
	}
}

// TestInitSaysNothingWasWritten: run again on a complete run, init skips
// every file and says that nothing was written instead of "scaffolded".
func TestInitSaysNothingWasWritten(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	runCLI(t, "init", dir)
	code, out, errOut := runCLI(t, "init", dir)
	skip := func(name string) string {
		return "skip   " + filepath.Join(dir, name) + "  (exists, use --force to overwrite)\n"
	}
	want := skip("plan-of-record.md") + skip("execution-guide.md") + skip("compliance-log.md") +
		"\nNothing was written: " + dir + "/ already holds every file (use --force to overwrite the documents).\n"
	if diff := cmp.Diff(want, out); code != 0 || errOut != "" || diff != "" {
		t.Errorf("exit %d, stderr %q, output (-want +got):\n%s", code, errOut, diff)
	}
	// A missing .gitkeep alone is written, and the run is scaffolded.
	os.Remove(filepath.Join(dir, "annexes", ".gitkeep"))
	_, out, _ = runCLI(t, "init", dir)
	if !strings.Contains(out, "wrote  "+filepath.Join(dir, "annexes", ".gitkeep")+"\n") || !strings.Contains(out, "scaffolded") {
		t.Errorf("with .gitkeep missing:\n%s", out)
	}
}

func TestInitName(t *testing.T) {
	dir := t.TempDir()
	runCLI(t, "init", dir, "--name", "Ledger Service")
	b, _ := os.ReadFile(filepath.Join(dir, "compliance-log.md"))
	if !strings.HasPrefix(string(b), "# Ledger Service — Compliance Log\n") {
		t.Errorf("--name not used: %q", strings.SplitN(string(b), "\n", 2)[0])
	}
}

func TestInitKeepsAndForces(t *testing.T) {
	dir := t.TempDir()
	guide := filepath.Join(dir, "execution-guide.md")
	writeFile(t, dir, "execution-guide.md", "mine\n")
	code, out, _ := runCLI(t, "init", dir)
	wantTail := "skip   " + guide + "  (exists, use --force to overwrite)\n\n"
	if code != 0 || !strings.Contains(out, wantTail) || strings.Contains(out, "wrote  "+guide) {
		t.Fatalf("without --force: exit %d\n%s", code, out)
	}
	if b, _ := os.ReadFile(guide); string(b) != "mine\n" {
		t.Fatalf("existing guide overwritten without --force: %q", b)
	}
	code, out, _ = runCLI(t, "init", dir, "--force")
	if code != 0 || !strings.Contains(out, "wrote  "+guide) || strings.Contains(out, "skip") {
		t.Fatalf("with --force: exit %d\n%s", code, out)
	}
	if b, _ := os.ReadFile(guide); string(b) == "mine\n" {
		t.Fatal("--force did not overwrite the guide")
	}
	if entries, _ := filepath.Glob(filepath.Join(dir, ".*tmp-*")); len(entries) != 0 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestInitOnFile(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "run", "precious\n")
	path := filepath.Join(dir, "run")
	code, out, errOut := runCLI(t, "init", path)
	if code != 2 || out != "" || errOut != "error: "+path+" exists and is not a directory.\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if b, _ := os.ReadFile(path); string(b) != "precious\n" {
		t.Errorf("file changed: %q", b)
	}
}

func TestInitAnnexesIsFile(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "annexes", "")
	code, _, errOut := runCLI(t, "init", dir)
	if code != 2 || !strings.HasPrefix(errOut, "error: create ") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// A document path taken by a folder is refused before anything is written,
// with or without --force: nothing is left half-scaffolded.
func TestInitDocumentIsFolder(t *testing.T) {
	for _, force := range []bool{false, true} {
		dir := t.TempDir()
		guide := filepath.Join(dir, "execution-guide.md")
		if err := os.Mkdir(guide, 0o755); err != nil {
			t.Fatal(err)
		}
		args := []string{"init", dir}
		if force {
			args = append(args, "--force")
		}
		code, out, errOut := runCLI(t, args...)
		if code != 2 || out != "" || errOut != "error: "+guide+" exists and is not a file.\n" {
			t.Errorf("force=%v: exit %d, stdout %q, stderr %q", force, code, out, errOut)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("force=%v: init wrote %d entries, want only the existing folder", force, len(entries)-1)
		}
	}
}

// TestRundocsHelp checks that every flag of init, lint and status is
// documented in --help.
func TestRundocsHelp(t *testing.T) {
	tests := map[string][]string{
		"init":   {"--name", "--force", "project name", "overwrite"},
		"lint":   {"--annex-threshold", "--format", "more than this many annexes", `"json"`, "Exit codes"},
		"status": {"--json", "phases with titles and weights", "Exit codes"},
	}
	for cmd, wants := range tests {
		t.Run(cmd, func(t *testing.T) {
			code, out, errOut := runCLI(t, cmd, "--help")
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			for _, w := range wants {
				if !strings.Contains(out, w) {
					t.Errorf("%s --help lacks %q:\n%s", cmd, w, out)
				}
			}
		})
	}
}

// TestRundocsDocumentedFlags checks that every flag named in the command
// headings of docs/run-documents.md exists in that command's --help.
func TestRundocsDocumentedFlags(t *testing.T) {
	b, err := os.ReadFile("../../../docs/run-documents.md")
	if err != nil {
		t.Fatal(err)
	}
	heading := regexp.MustCompile("(?m)^## `aepgate (\\w+) ([^`]*)`$")
	flagRE := regexp.MustCompile(`--[a-z-]+`)
	found := 0
	for _, m := range heading.FindAllStringSubmatch(string(b), -1) {
		_, help, _ := runCLI(t, m[1], "--help")
		for _, f := range flagRE.FindAllString(m[2], -1) {
			found++
			if !strings.Contains(help, f) {
				t.Errorf("docs name %s %s, but its --help does not", m[1], f)
			}
		}
	}
	if found < 5 {
		t.Errorf("found only %d documented flags; did the headings change?", found)
	}
}
