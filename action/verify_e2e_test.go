package action

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/isolate"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// verifyCheck is the Verify command of P0-T1: it fails when it can read
// the job's token, and prints its last line otherwise.
const verifyCheck = `if [ -n "$GITHUB_TOKEN$INPUT_TOKEN" ]; then echo leaked; exit 9; fi; sh check.sh`

// verifyGuide is an execution guide whose task P0-T1 verifies with cmd.
func verifyGuide(cmd string) string {
	return "# Execution guide\n\n# Phase 0 — Work\n\n### P0-T1 — Check\n\n**Verify:**\n```bash\n" + cmd + "\n```\n\n**Report:** `P0-T1`\n"
}

// newVerifyEnv is newStepEnv for a run folder whose task P0-T1 is DONE
// with pasted as its Verify output and check.sh as given; the auditor's
// guide is on the base branch.
func newVerifyEnv(t *testing.T, checkSh, pasted string) *stepEnv {
	return newVerifyEnvGuide(t, checkSh, pasted, verifyCheck)
}

// newVerifyEnvGuide is newVerifyEnv whose pull request changes P0-T1's
// Verify command to headCmd (verifyCheck: no change).
func newVerifyEnvGuide(t *testing.T, checkSh, pasted, headCmd string) *stepEnv {
	return newVerifyEnvConfig(t, "version: 1\nrun_documents: [docs/run]\n", checkSh, pasted, headCmd)
}

// newVerifyEnvConfig is newVerifyEnvGuide with cfg as the base's config.
func newVerifyEnvConfig(t *testing.T, cfg, checkSh, pasted, headCmd string) *stepEnv {
	t.Helper()
	e := &stepEnv{t: t, f: ghfake.New(t)}
	e.repo = e.f.CreateRepo("acme/widgets")
	e.base = e.repo.Commit("main", "add config", map[string]string{".github/aepgate.yml": cfg,
		"docs/run/execution-guide.md": verifyGuide(verifyCheck), "docs/run/plan-of-record.md": "# Plan of record\n"})
	e.repo.Branch("unit-12", "main")
	e.head = e.repo.Commit("unit-12", "work", map[string]string{
		"check.sh":                    checkSh,
		"docs/run/plan-of-record.md":  "# Plan of record\n",
		"docs/run/execution-guide.md": verifyGuide(headCmd),
		"docs/run/compliance-log.md":  "# Compliance log\n\n### P0-T1 — DONE\n\n**Verify output:**\n```\n" + pasted + "\n```\n",
	})
	for range prNumber - 1 {
		e.repo.OpenIssue("octo", "earlier issue", "")
	}
	e.repo.OpenPR("octo", "unit-12", "main", "Check", "Check.")
	e.ws = mirrorGit(t, e.f.Client(e.f.ActionsToken(e.repo, writable)), e.head)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "event.json"), e.event("Check."))
	e.vars = map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "acme/widgets", "GITHUB_EVENT_NAME": "pull_request",
		"GITHUB_EVENT_PATH": filepath.Join(dir, "event.json"), "GITHUB_SHA": strings.Repeat("e", 40),
		"GITHUB_API_URL": strings.TrimSuffix(e.f.URL(), "/"), "GITHUB_WORKSPACE": e.ws,
		"GITHUB_OUTPUT": filepath.Join(dir, "output"), "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"),
		"GITHUB_SERVER_URL": "https://github.com", "GITHUB_RUN_ID": "4242",
		"INPUT_TOKEN": e.f.ActionsToken(e.repo, writable), "INPUT_CHECKS": "lint", "INPUT_VERIFY": "rerun",
	}
	// The runner's environment holds the job's token, as on GitHub.
	t.Setenv("GITHUB_TOKEN", "ghs_planted_job_token")
	t.Setenv("INPUT_TOKEN", "ghs_planted_job_token")
	return e
}

// TestActionVerifyRerun: aep/verify reproduces an honest DONE task, calls a
// pasted "ok" whose command fails a false green annotated on the report's
// line, refuses pull_request_target, and runs nothing without the input.
func TestActionVerifyRerun(t *testing.T) {
	tests := []struct {
		name, checkSh, pasted string
		vars                  map[string]string
		want                  string // aep/verify's conclusion; "" when it must not run
		annotated             bool
	}{
		{"honest", "echo 'ok  widgets 0.1s'\n", "$ sh check.sh\nok  widgets 0.1s", nil, "success", false},
		{"hard-coded pass", "echo 'FAIL widgets'; exit 1\n", "$ sh check.sh\nok  widgets 0.1s", nil, "failure", true},
		{"pull_request_target refused", "echo 'ok  widgets 0.1s'\n", "ok  widgets 0.1s", map[string]string{"GITHUB_EVENT_NAME": "pull_request_target"}, "failure", false},
		{"negative control: no verify input", "echo 'FAIL widgets'; exit 1\n", "ok  widgets 0.1s", map[string]string{"INPUT_VERIFY": ""}, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newVerifyEnv(t, tc.checkSh, tc.pasted)
			for k, v := range tc.vars {
				e.vars[k] = v
			}
			e.run()
			r, ok := e.runs()[checks.NameVerify]
			if tc.want == "" {
				if ok {
					t.Fatalf("aep/verify ran without the input: %+v", r)
				}
				return
			}
			if !ok || r.Conclusion != tc.want {
				t.Fatalf("aep/verify = %+v, want %s\n%s", r, tc.want, e.stdout.String())
			}
			if got := len(r.Annotations) == 1 && r.Annotations[0].Path == "docs/run/compliance-log.md" && r.Annotations[0].StartLine == 3; got != tc.annotated {
				t.Errorf("annotations %+v, want one on docs/run/compliance-log.md:3: %v", r.Annotations, tc.annotated)
			}
		})
	}
}

// TestActionVerifyFromBase: a pull request that changes a failing task's
// Verify command to a printf of the pasted line gets aep/verify failing,
// annotated on the report's line: the command is the base's, and the
// changed one is not run. The rule is reverify.FromBase; its negative
// control (the head's guide read instead, the lie passing) is the CLI's
// TestVerifyRerunFromBase.
func TestActionVerifyFromBase(t *testing.T) {
	e := newVerifyEnvGuide(t, "echo 'FAIL widgets'; exit 1\n", "ok  widgets 0.1s", "printf 'ok  widgets 0.1s\\n'")
	e.run()
	r, ok := e.runs()[checks.NameVerify]
	if !ok || r.Conclusion != "failure" {
		t.Fatalf("aep/verify = %+v, want failure\n%s", r, e.stdout.String())
	}
	if !strings.Contains(r.Summary, "Verify command changed on this pull request") || len(r.Annotations) != 1 ||
		!strings.Contains(r.Annotations[0].Message, "P0-T1: the Verify command changed on this pull request; not re-run from the head's text") {
		t.Errorf("aep/verify summary:\n%s\nannotations %+v", r.Summary, r.Annotations)
	}
}

// TestActionVerifyScrubsToken: the Verify command cannot read the job's
// token. Its negative control runs the same command with the runner's whole
// environment (isolate.Options.Env): it then sees the token, and the
// pasted output is not reproduced.
func TestActionVerifyScrubsToken(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  bool
		want string
	}{{"scrubbed", false, "success"}, {"negative control: the token left in", true, "failure"}} {
		t.Run(tc.name, func(t *testing.T) {
			e := newVerifyEnv(t, "echo 'ok  widgets 0.1s'\n", "ok  widgets 0.1s")
			run := func(ctx context.Context, root string, cmds []string) ([]isolate.Outcome, error) {
				o := isolate.Options{Timeout: VerifyTimeout}
				if tc.env {
					o.Env = os.Environ()
				}
				return isolate.Commands(ctx, root, cmds, o)
			}
			code, err := Run(context.Background(), Options{Getenv: func(k string) string { return e.vars[k] }, Stdout: &e.stdout,
				GitHub: e.connect(), RunControls: e.controls, RunVerify: run})
			if err != nil {
				t.Logf("Run: %v (exit %d)", err, code)
			}
			if r := e.runs()[checks.NameVerify]; r.Conclusion != tc.want {
				t.Errorf("aep/verify = %s %q, want %s\n%s", r.Conclusion, r.Title, tc.want, r.Summary)
			}
		})
	}
}
