package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// plansSkillState is a phase-1 state file in the Executor skill's dialect
// (no version key, tasks keyed by ID, abbreviated commits, verification by
// test/lint/build), as the spec's example writes it.
func plansSkillState(commit1, commit2, status, test string) string {
	return `{
  "phase": 1,
  "status": "` + status + `",
  "claimed_by": "executor-a",
  "branch": "plan/billing/phase-1",
  "worktree": ".worktrees/phase-1",
  "started_at": "2026-07-25T09:12:00Z",
  "tasks": {
    "1.1": { "status": "done", "commit": "` + commit1[:7] + `", "completed_at": "2026-07-25T09:40:00Z" },
    "1.2": { "status": "done", "commit": "` + commit2[:7] + `", "completed_at": "2026-07-25T09:50:00Z" }
  },
  "verification": {
    "test":  { "command": "` + test + `", "exit_code": 0 },
    "lint":  { "command": "sh src/ok.sh", "exit_code": 0 }
  },
  "advisor": { "early": "2026-07-25T09:15:00Z", "late": null }
}
`
}

// TestPlansVerifySkillDialect runs plans verify on a repository whose
// state file is written as the Executor skill writes it: the honest one
// passes, and each lie is caught; the negative control of the hard-coded
// exit 0 is the same repository without --rerun (the re-run is the rule).
func TestPlansVerifySkillDialect(t *testing.T) {
	tests := []struct {
		name     string
		build    func(r *plansRepo)
		args     []string
		wantCode int
		want     []string
	}{
		{"honest", func(r *plansRepo) {
			c1 := r.commit("model", map[string]string{"src/model.go": "package src\n"})
			c2 := r.commit("api", map[string]string{"src/api.go": "package src\n"})
			r.commit("state", map[string]string{"plans/billing/state/phase-1.json": plansSkillState(c1, c2, "needs_review", "sh src/ok.sh")})
		}, []string{"--rerun"}, 0, []string{"phase 1  needs_review", "OK: every rule holds"}},
		{"hard-coded exit 0", func(r *plansRepo) {
			c1 := r.commit("model", map[string]string{"src/model.go": "package src\n"})
			c2 := r.commit("api", map[string]string{"src/api.go": "package src\n"})
			r.commit("state", map[string]string{"plans/billing/state/phase-1.json": plansSkillState(c1, c2, "needs_review", "echo nope; exit 4")})
		}, []string{"--rerun"}, 1, []string{
			`plans/billing/state/phase-1.json:13: rerun: false green: "echo nope; exit 4" recorded exit code 0, re-run exited 4`}},
		{"negative control: hard-coded exit 0 without --rerun", func(r *plansRepo) {
			c1 := r.commit("model", map[string]string{"src/model.go": "package src\n"})
			c2 := r.commit("api", map[string]string{"src/api.go": "package src\n"})
			r.commit("state", map[string]string{"plans/billing/state/phase-1.json": plansSkillState(c1, c2, "needs_review", "echo nope; exit 4")})
		}, nil, 0, []string{"OK: every rule holds"}},
		{"previous HEAD as a task's commit", func(r *plansRepo) {
			c1 := r.commit("model", map[string]string{"src/model.go": "package src\n"})
			r.commit("state", map[string]string{"plans/billing/state/phase-1.json": plansSkillState(c1, c1, "needs_review", "true")})
		}, nil, 1, []string{`plans/billing/state/phase-1.json:10: task-commits: task "1.2": commit `, `is also task "1.1"'s commit`}},
		{"phase set done", func(r *plansRepo) {
			c1 := r.commit("model", map[string]string{"src/model.go": "package src\n"})
			c2 := r.commit("api", map[string]string{"src/api.go": "package src\n"})
			r.commit("state", map[string]string{"plans/billing/state/phase-1.json": plansSkillState(c1, c2, "done", "true")})
		}, nil, 1, []string{"plans/billing/state/phase-1.json:3: phase-done:"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newPlansRepo(t)
			tc.build(r)
			code, out, errOut := runCLI(t, append([]string{"plans", "verify", filepath.Join(r.dir, "plans/billing")}, tc.args...)...)
			if code != tc.wantCode {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.wantCode, out, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
		})
	}
}
