package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// plansSkillFixture reads a file of the skill-dialect example folder kept
// with protocol/plans: the spec's (executor-state) phase-2 state file
// verbatim, its progress.json and phase briefs as docs/plans.md reads them.
func plansSkillFixture(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../../../protocol/plans/testdata/skill", rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// newSkillPlansRepo commits the example folder without phase 2's state on
// main, then checks out plan/add-rate-limiting/phase-2.
func newSkillPlansRepo(t *testing.T) *plansRepo {
	r := &plansRepo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	files := map[string]string{"src/limiter/types.ts": "export interface RateLimiter {}\n"}
	for _, rel := range []string{"progress.json", "phases/phase-1-limiter-core.md", "phases/phase-2-redis-backend.md",
		"state/phase-1.json", "state/phase-1.review.json"} {
		files["plans/add-rate-limiting/"+rel] = plansSkillFixture(t, rel)
	}
	r.commit("plan", files)
	r.git("checkout", "-q", "-b", "plan/add-rate-limiting/phase-2")
	return r
}

// skillPhase2 is the spec's phase-2 state file with task 2.1's commit
// "a1b2c3d" replaced by the abbreviation of the real one (the only change:
// the example's SHA names no commit of a repository built here).
func skillPhase2(t *testing.T, commit string) string {
	return strings.Replace(plansSkillFixture(t, "state/phase-2.json"), `"a1b2c3d"`, `"`+commit[:7]+`"`, 1)
}

const skillPlanDir = "plans/add-rate-limiting"

// TestPlansVerifySkillFolder: the skill's own example folder, as the spec
// writes it, passes; each lie about scope, conflict zones, pre-conditions
// and commands is refused with a message naming the file or task. Without
// --owner no review approves (the skill's progress.json names no owner),
// so phase 2's dependency on phase 1 is a finding: fail closed.
func TestPlansVerifySkillFolder(t *testing.T) {
	client := map[string]string{"src/redis/client.ts": "export {}\n", "src/redis/client.test.ts": "test\n"}
	state := skillPlanDir + "/state/phase-2.json"
	tests := []struct {
		name     string
		build    func(t *testing.T, r *plansRepo)
		args     []string
		wantCode int
		want     []string
	}{
		{"the spec's example", func(t *testing.T, r *plansRepo) {
			c1 := r.commit("2.1", client)
			r.commit("state", map[string]string{state: skillPhase2(t, c1)})
		}, []string{"--owner", "olivia"}, 0, []string{
			"progress.json read as the Executor skill's dialect (no version key), owner olivia, 2 phase brief(s)",
			"phase 1  done", "phase 2  in_progress", "OK: every rule holds"}},
		{"no owner named: no review approves", func(t *testing.T, r *plansRepo) {
			c1 := r.commit("2.1", client)
			r.commit("state", map[string]string{state: skillPhase2(t, c1)})
		}, nil, 1, []string{"owner not named (--owner)",
			"dependencies: phase 2 is claimed but phase 1 it depends on has no approving review file"}},
		{"a task changes a file its brief does not list", func(t *testing.T, r *plansRepo) {
			c1 := r.commit("2.1", map[string]string{"src/redis/client.ts": "x\n", "src/server.ts": "x\n"})
			r.commit("state", map[string]string{state: skillPhase2(t, c1)})
		}, []string{"--owner", "olivia"}, 1, []string{
			`plans/add-rate-limiting/state/phase-2.json:9: task-files: task "2.1"'s commit `,
			"changes src/server.ts, which plans/add-rate-limiting/phases/phase-2-redis-backend.md:32 does not list for it"}},
		{"a file in phase 1's conflict zone", func(t *testing.T, r *plansRepo) {
			c1 := r.commit("2.1", map[string]string{"src/redis/client.ts": "x\n", "src/limiter/types.ts": "changed\n"})
			r.commit("state", map[string]string{state: skillPhase2(t, c1)})
		}, []string{"--owner", "olivia"}, 1, []string{
			`conflict-zones: src/limiter/types.ts is in phase 1's conflict zone "src/limiter/types.ts"`,
			"changes src/limiter/types.ts, which"}},
		{"a task done before its pre-condition", func(t *testing.T, r *plansRepo) {
			c22 := r.commit("2.2", map[string]string{"src/redis/refill.ts": "x\n"})
			c21 := r.commit("2.1", client)
			r.commit("state", map[string]string{state: `{"phase": 2, "status": "in_progress", "claimed_by": "executor-a",
  "tasks": {"2.1": {"status": "done", "commit": "` + c21[:7] + `"},
            "2.2": {"status": "done", "commit": "` + c22[:7] + `"}}}`})
		}, []string{"--owner", "olivia"}, 1, []string{
			`task-preconditions: task "2.2" is done at commit `, `but task "2.1", a pre-condition of it (plans/add-rate-limiting/phases/phase-2-redis-backend.md:46), was done after it`}},
		{"a recorded command that is not the plan's", func(t *testing.T, r *plansRepo) {
			c1 := r.commit("2.1", client)
			r.commit("state", map[string]string{state: strings.Replace(skillPhase2(t, c1), `"npm run lint"`, `"true"`, 1)})
		}, []string{"--owner", "olivia"}, 1, []string{
			`plans/add-rate-limiting/state/phase-2.json:15: verify-commands: verification.lint ran "true", but progress.json's commands.lint is "npm run lint"`}},
		{"the brief widened in the same pull request", func(t *testing.T, r *plansRepo) {
			brief := strings.Replace(plansSkillFixture(t, "phases/phase-2-redis-backend.md"), "- `src/redis/client.test.ts`", "- `src/**`", 1)
			c1 := r.commit("2.1", map[string]string{"src/redis/client.ts": "x\n", "src/server.ts": "x\n",
				skillPlanDir + "/phases/phase-2-redis-backend.md": brief})
			r.commit("state", map[string]string{state: skillPhase2(t, c1)})
		}, []string{"--owner", "olivia"}, 1, []string{
			"contract: the phase brief plans/add-rate-limiting/phases/phase-2-redis-backend.md is part of the plan's contract",
			"changes src/server.ts, which"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newSkillPlansRepo(t)
			tc.build(t, r)
			code, out, errOut := runCLI(t, append([]string{"plans", "verify", filepath.Join(r.dir, skillPlanDir)}, tc.args...)...)
			if code != tc.wantCode {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.wantCode, out, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			for _, never := range []string{"version 0 is not supported", "owner: required", "unknown key"} {
				if strings.Contains(out, never) {
					t.Errorf("stdout has %q: the skill's progress.json was read as aepgate's:\n%s", never, out)
				}
			}
		})
	}
}

// TestPlansVerifySkillJSON: the JSON report names the dialect progress.json
// was read as.
func TestPlansVerifySkillJSON(t *testing.T) {
	r := newSkillPlansRepo(t)
	c1 := r.commit("2.1", map[string]string{"src/redis/client.ts": "x\n"})
	r.commit("state", map[string]string{skillPlanDir + "/state/phase-2.json": skillPhase2(t, c1)})
	code, out, errOut := runCLI(t, "plans", "verify", filepath.Join(r.dir, skillPlanDir), "--owner", "olivia", "--format", "json")
	var got struct {
		Dialect string `json:"dialect"`
		OK      bool   `json:"ok"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 || got.Dialect != "skill" || !got.OK {
		t.Errorf("exit %d, %v, report %+v\n%s%s", code, err, got, out, errOut)
	}
}
