package action

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/verdicts"
)

// newVerdictsEnv is a pull request whose compliance log gets P0-T1's DONE
// report from exec and then its APPROVED heading from approver; the base
// config lists auditors (none when empty).
func newVerdictsEnv(t *testing.T, auditors, approver string) *stepEnv {
	t.Helper()
	e := &stepEnv{t: t, f: ghfake.New(t)}
	e.repo = e.f.CreateRepo("acme/widgets")
	cfg := "version: 1\nrun_documents: [docs/run]\n"
	if auditors != "" {
		cfg += "auditors: [" + auditors + "]\n"
	}
	e.base = e.repo.Commit("main", "add config", map[string]string{".github/aepgate.yml": cfg})
	e.repo.Branch("unit-12", "main")
	guide := "# Execution guide\n\n# Phase 0 — Work\n\n### P0-T1 — Check\n\n**Verify:**\n```bash\ntrue\n```\n\n**Report:** `P0-T1`\n"
	log := "# Compliance log\n\n### P0-T1 — DONE\n\n**Verify output:**\n```\nok\n```\n"
	e.repo.CommitBy("exec", "unit-12", "report", map[string]string{"docs/run/plan-of-record.md": "# Plan of record\n",
		"docs/run/execution-guide.md": guide, "docs/run/compliance-log.md": log})
	e.head = e.repo.CommitBy(approver, "unit-12", "verdict", map[string]string{"docs/run/compliance-log.md": log + "\n### P0-T1 — APPROVED\n"})
	for range prNumber - 1 {
		e.repo.OpenIssue("octo", "earlier issue", "")
	}
	e.repo.OpenPR("exec", "unit-12", "main", "Check", "Check.")
	e.ws = mirrorGit(t, e.f.Client(e.f.ActionsToken(e.repo, writable)), e.head)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "event.json"), e.event("Check."))
	e.vars = map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "acme/widgets", "GITHUB_EVENT_NAME": "pull_request",
		"GITHUB_EVENT_PATH": filepath.Join(dir, "event.json"), "GITHUB_SHA": strings.Repeat("e", 40),
		"GITHUB_API_URL": strings.TrimSuffix(e.f.URL(), "/"), "GITHUB_WORKSPACE": e.ws,
		"GITHUB_OUTPUT": filepath.Join(dir, "output"), "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"),
		"GITHUB_SERVER_URL": "https://github.com", "GITHUB_RUN_ID": "4242",
		"INPUT_TOKEN": e.f.ActionsToken(e.repo, writable), "INPUT_CHECKS": "verdicts",
	}
	return e
}

// TestActionVerdicts: a verdict introduced by a listed auditor passes; one
// introduced by the task's executor, or by anyone not listed, fails on its
// line; each attack passes once its rule is left out (the negative
// control); without auditors the check is neutral and says so.
func TestActionVerdicts(t *testing.T) {
	tests := []struct {
		name, auditors, approver, without string
		want                              string
	}{
		{"an auditor approves", "ann", "ann", "", "success"},
		{"the executor approves its own task", "ann, exec", "exec", "not-executor", "failure"},
		{"someone unlisted approves", "ann", "mallory", "listed-auditor", "failure"},
		{"no auditors list", "", "exec", "", "neutral"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newVerdictsEnv(t, tc.auditors, tc.approver)
			r := runVerdicts(e, verdicts.DefaultRules())
			if r.Conclusion != tc.want {
				t.Fatalf("aep/verdicts = %s %q, want %s\n%s\n%s", r.Conclusion, r.Title, tc.want, r.Summary, e.stdout.String())
			}
			if tc.want == "failure" && (len(r.Annotations) != 1 || r.Annotations[0].Path != "docs/run/compliance-log.md" || r.Annotations[0].StartLine != 10) {
				t.Errorf("annotations %+v, want one on docs/run/compliance-log.md:10", r.Annotations)
			}
			if tc.want == "neutral" && !strings.Contains(r.Summary, "lists no auditors") {
				t.Errorf("a neutral run does not say why:\n%s", r.Summary)
			}
			if tc.without == "" {
				return
			}
			// A fresh pull request: a run's annotations cannot be removed, so
			// the same one would get a second run.
			e = newVerdictsEnv(t, tc.auditors, tc.approver)
			if r := runVerdicts(e, verdicts.Without(verdicts.DefaultRules(), tc.without)); r.Conclusion != "success" {
				t.Errorf("without %s: %s %q, want the attack to pass", tc.without, r.Conclusion, r.Title)
			}
		})
	}
}

func runVerdicts(e *stepEnv, rules []verdicts.Rule) ghfake.CheckRun {
	e.stdout.Reset()
	_, _ = Run(context.Background(), Options{Getenv: func(k string) string { return e.vars[k] }, Stdout: &e.stdout,
		GitHub: e.connect(), RunControls: e.controls, VerdictRules: rules})
	return e.runs()[checks.NameVerdicts]
}
