package cli

import (
	"bytes"
	"context"
	"github.com/aepgate/aepgate/action"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// actionRun runs `aepgate action` with env set as the runner would.
func actionRun(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	for _, k := range []string{"GITHUB_REPOSITORY", "GITHUB_EVENT_NAME", "GITHUB_EVENT_PATH", "GITHUB_SHA",
		"GITHUB_WORKSPACE", "GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY", "GITHUB_RUN_ID", "GITHUB_API_URL",
		"INPUT_DIR", "INPUT_CHECKS", "INPUT_CONFIG", "INPUT_TOKEN", "INPUT_FAIL-ON", "INPUT_TAG", "INPUT_ASSETS", "INPUT_MANIFEST"} {
		t.Setenv(k, env[k])
	}
	var out, errb bytes.Buffer
	code := runFull(context.Background(), append([]string{"action"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestActionCommand(t *testing.T) {
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "docs/run"), 0o755); err != nil {
		t.Fatal(err)
	}
	if c, _, e := runCLI(t, "init", filepath.Join(ws, "docs/run")); c != 0 {
		t.Fatalf("init: %d %s", c, e)
	}
	// The workspace is a checkout of GITHUB_SHA, as the Action requires.
	head := gitCheckout(t, ws)
	base := map[string]string{
		"GITHUB_REPOSITORY": "acme/widgets", "GITHUB_EVENT_NAME": "push", "GITHUB_SHA": head,
		"GITHUB_WORKSPACE": ws, "GITHUB_OUTPUT": filepath.Join(ws, "out"), "GITHUB_STEP_SUMMARY": filepath.Join(ws, "sum"),
		"INPUT_DIR": "docs/*",
	}
	with := func(k, v string) map[string]string {
		m := map[string]string{}
		for a, b := range base {
			m[a] = b
		}
		m[k] = v
		return m
	}
	tests := []struct {
		name       string
		env        map[string]string
		args       []string
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		{"clean run without token", base, nil, 0, "could not write check runs: no token was given", ""},
		{"bad fail-on", with("INPUT_FAIL-ON", "maybe"), nil, 2, "::error::aepgate: input fail-on", "error: input fail-on is \"maybe\""},
		{"outside actions", with("GITHUB_REPOSITORY", ""), nil, 2, "", "GITHUB_REPOSITORY is not set"},
		{"missing folder fails", with("INPUT_DIR", "docs/none"), nil, 1, "", ""},
		{"no arguments", base, []string{"extra"}, 2, "", "unknown command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := actionRun(t, tt.env, tt.args...)
			if code != tt.wantCode || !strings.Contains(stdout, tt.wantStdout) || !strings.Contains(stderr, tt.wantStderr) {
				t.Errorf("exit %d (want %d)\nstdout:\n%s\nstderr:\n%s", code, tt.wantCode, stdout, stderr)
			}
		})
	}
}

// TestActionHelpNamesEveryInput: --help names every input action.yml
// declares and every output, read from action.yml itself, and every check
// and check run of the Action's own table (action.Checks), each in the
// order the Action makes them.
func TestActionHelpNamesEveryInput(t *testing.T) {
	code, out, _ := runCLI(t, "action", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	yml := repoFile(t, "action.yml")
	inputs, _, _ := strings.Cut(yml[strings.Index(yml, "\ninputs:"):], "\noutputs:")
	_, outputs, _ := strings.Cut(yml, "\noutputs:")
	outputs, _, _ = strings.Cut(outputs, "\nruns:")
	key := regexp.MustCompile(`(?m)^  ([a-z-]+):`)
	for _, m := range key.FindAllStringSubmatch(inputs, -1) {
		if want := "INPUT_" + strings.ToUpper(m[1]); !strings.Contains(out, want) {
			t.Errorf("--help does not mention %s (action.yml input %s)", want, m[1])
		}
	}
	for _, m := range key.FindAllStringSubmatch(outputs, -1) {
		if !strings.Contains(out, m[1]) {
			t.Errorf("--help does not mention the output %s", m[1])
		}
	}
	last := -1
	for _, c := range action.Checks() {
		i := strings.Index(out, c.Run+" ")
		if i < 0 || !strings.Contains(out, "("+c.Input+")") || i < last {
			t.Errorf("--help does not list %s (%s) in order", c.Run, c.Input)
		}
		last = i
	}
}

// gitCheckout commits everything in dir as a new repository and returns
// the commit's SHA.
func gitCheckout(t *testing.T, dir string) string {
	t.Helper()
	var sha string
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "init"}, {"rev-parse", "HEAD"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		sha = strings.TrimSpace(string(out))
	}
	return sha
}
