package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/testkit/golden"
)

const problemsDir = "testdata/rundocs/problems"
const exampleDir = "../../../examples/ledger-service"

func TestLintGolden(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantCode int
	}{
		{"lint-problems.golden", []string{"lint", problemsDir, "--annex-threshold", "4"}, 1},
		{"lint-problems.json.golden", []string{"lint", problemsDir, "--annex-threshold", "4", "--format", "json"}, 1},
		{"lint-example.golden", []string{"lint", exampleDir}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tt.args...)
			if code != tt.wantCode || errOut != "" {
				t.Errorf("exit %d, stderr %q; want exit %d and no stderr", code, errOut, tt.wantCode)
			}
			golden.CheckString(t, filepath.Join("testdata", "rundocs", tt.name), out)
		})
	}
}

func TestLintAnnexThresholdFlag(t *testing.T) {
	for threshold, want := range map[string]int{"4": 1, "5": 0} {
		code, out, _ := runCLI(t, "lint", problemsDir, "--annex-threshold", threshold)
		if got := strings.Contains(out, "[annex count]"); got != (want == 1) {
			t.Errorf("--annex-threshold %s: annex finding %v, want %v", threshold, got, want == 1)
		}
		if code != 1 {
			t.Errorf("--annex-threshold %s: exit %d, want 1 (other problems remain)", threshold, code)
		}
	}
}

func TestLintJSONFields(t *testing.T) {
	_, out, _ := runCLI(t, "lint", problemsDir, "--format", "json")
	var doc struct {
		Clean    bool
		Count    int
		Problems []map[string]any
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("lint --format json is not JSON: %v\n%s", err, out)
	}
	if doc.Clean || doc.Count != len(doc.Problems) || doc.Count == 0 {
		t.Errorf("clean=%v count=%d problems=%d", doc.Clean, doc.Count, len(doc.Problems))
	}
	for _, p := range doc.Problems {
		for _, k := range []string{"rule", "tag", "file", "line", "message"} {
			if _, ok := p[k]; !ok {
				t.Errorf("problem %v has no %q", p, k)
			}
		}
	}
}

func TestLintExitCodes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	code, out, errOut := runCLI(t, "lint", dir)
	want := "error: " + dir + " is missing execution-guide.md, compliance-log.md (run `aepgate init " + dir + "`).\n"
	if code != 2 || out != "" || errOut != want {
		t.Fatalf("before init: exit %d, stdout %q, stderr %q; want 2, nothing, %q", code, out, errOut, want)
	}
	if code, _, errOut := runCLI(t, "init", dir); code != 0 {
		t.Fatalf("init: exit %d: %s", code, errOut)
	}
	if code, out, _ := runCLI(t, "lint", dir); code != 0 || out != "clean — no cross-document gaps found.\n" {
		t.Fatalf("after init: exit %d, %q", code, out)
	}
	logPath := filepath.Join(dir, "compliance-log.md")
	b, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.Replace(b, []byte("### P0-T1 — PENDING"), []byte("### P0-T1 — DONE"), 1)
	if err := os.WriteFile(logPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCLI(t, "lint", dir)
	if code != 1 || !strings.Contains(out, "[done without evidence] 1 report(s)") || !strings.Contains(out, "  - P0-T1\n") {
		t.Fatalf("after DONE without evidence: exit %d\n%s", code, out)
	}
}

func TestLintInputErrors(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		args  []string
		want  string
	}{
		{"guide without log", func(t *testing.T, dir string) { writeFile(t, dir, "execution-guide.md", "") }, nil, "is missing compliance-log.md (run"},
		{"binary log", func(t *testing.T, dir string) {
			writeFile(t, dir, "execution-guide.md", "")
			writeFile(t, dir, "compliance-log.md", "\x00\x01")
		}, nil, "binary file (NUL byte on line 1)"},
		{"invalid UTF-8 guide", func(t *testing.T, dir string) {
			writeFile(t, dir, "execution-guide.md", "\xc3\x28")
			writeFile(t, dir, "compliance-log.md", "")
		}, nil, "not valid UTF-8"},
		{"annexes is a file", func(t *testing.T, dir string) {
			writeFile(t, dir, "execution-guide.md", "")
			writeFile(t, dir, "compliance-log.md", "")
			writeFile(t, dir, "annexes", "")
		}, nil, "annexes: exists but is not a folder"},
		{"huge log", func(t *testing.T, dir string) {
			writeFile(t, dir, "execution-guide.md", "")
			f, err := os.Create(filepath.Join(dir, "compliance-log.md"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Truncate(50<<20 + 1); err != nil { // sparse: no 50 MB written
				t.Fatal(err)
			}
		}, nil, "larger than the 50 MB limit"},
		{"bad format", func(t *testing.T, dir string) {}, []string{"--format", "xml"}, `--format must be text, json or sarif, not "xml"`},
		{"bad threshold", func(t *testing.T, dir string) {}, []string{"--annex-threshold", "many"}, "invalid argument"},
		{"negative threshold", func(t *testing.T, dir string) {}, []string{"--annex-threshold=-1"}, "--annex-threshold must be 0 or more, not -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tt.setup(t, dir)
			code, out, errOut := runCLI(t, append([]string{"lint", dir}, tt.args...)...)
			if code != 2 || out != "" || !strings.HasPrefix(errOut, "error: ") || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2, nothing, error containing %q", code, out, errOut, tt.want)
			}
		})
	}
}

func TestLintArgs(t *testing.T) {
	for _, args := range [][]string{{"lint"}, {"lint", "a", "b"}} {
		if code, _, errOut := runCLI(t, args...); code != 2 || !strings.HasPrefix(errOut, "error: ") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and an error", args, code, errOut)
		}
	}
}

func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLintCRLF checks that a run saved with Windows line endings lints and
// reports exactly like the LF original.
func TestLintCRLF(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"execution-guide.md", "compliance-log.md"} {
		b, err := os.ReadFile(filepath.Join(problemsDir, name))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, dir, name, strings.ReplaceAll(string(b), "\n", "\r\n"))
	}
	_, want, _ := runCLI(t, "lint", problemsDir, "--annex-threshold", "100")
	_, got, _ := runCLI(t, "lint", dir, "--annex-threshold", "100")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CRLF run differs (-LF +CRLF):\n%s", diff)
	}
}

// TestLintWarnsUnclosedFence: a fence that never closes swallows the rest
// of the log; lint says so on stderr and keeps stdout as aepkit's report.
func TestLintWarnsUnclosedFence(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "execution-guide.md", "### P0-T1 — a\n**Report:** `P0-T1`\n### P0-T2 — b\n**Report:** `P0-T2`\n")
	writeFile(t, dir, "compliance-log.md", "### P0-T1 — DONE\n\n**Verify output:**\n```\nok\n\n### P0-T2 — PENDING\n")
	code, out, errOut := runCLI(t, "lint", dir)
	wantErr := "warning: " + filepath.Join(dir, "compliance-log.md") + ":4: this fenced block is never closed, so everything after it is read as code (as GitHub shows it).\n"
	if code != 1 || errOut != wantErr || !strings.Contains(out, "[missing report] 1 task(s)") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr: %q\nwant stderr %q", code, out, errOut, wantErr)
	}
	if _, _, errOut := runCLI(t, "status", dir); errOut != wantErr {
		t.Errorf("status stderr %q, want %q", errOut, wantErr)
	}
}
