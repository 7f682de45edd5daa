package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/aepgate/aepgate/internal/treehash"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const plansProgress = `{
  "version": 1,
  "slug": "billing",
  "owner": "olivia",
  "phases": [
    {"id": 1, "title": "invoices", "parallel_safe": true, "conflict_zones": ["src/**"],
     "tasks": [{"id": "1.1", "title": "model"}, {"id": "1.2", "title": "api"}]},
    {"id": 2, "title": "web", "depends_on": [1], "conflict_zones": ["web/**"],
     "tasks": [{"id": "2.1", "title": "page"}]}
  ]
}
`

// plansRepo is a scratch repository: the contract on main, then a
// plan/billing/phase-1 branch.
type plansRepo struct {
	t   *testing.T
	dir string
}

func newPlansRepo(t *testing.T) *plansRepo {
	r := &plansRepo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	r.commit("contract", map[string]string{"plans/billing/progress.json": plansProgress, "src/ok.sh": "exit 0\n",
		"plans/billing/HANDOFF.md": plansHandoff})
	r.git("checkout", "-q", "-b", "plan/billing/phase-1")
	return r
}

func (r *plansRepo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-C", r.dir}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r *plansRepo) commit(msg string, files map[string]string) string {
	r.t.Helper()
	for p, body := range files {
		full := filepath.Join(r.dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

// plansHandoff is a HANDOFF.md carrying phase 1's handoff with the skill's
// six sections.
const plansHandoff = `## Handoff — phase 1 — 2026-07-25

### Where things stand
Both tasks done.
### What changed
src/.
### Decisions and why
None.
### Ruled out
Caching.
### Blockers
None.
### Next step
Review.
`

// state is a phase-1 state file with two done tasks and one verification.
func plansState(commit1, commit2, command string, exit string) string {
	return `{
  "version": 1,
  "phase": 1,
  "executor": "exec-bot",
  "branch": "plan/billing/phase-1",
  "status": "needs_review",
  "tasks": [
    {"id": "1.1", "status": "done", "commit": "` + commit1 + `"},
    {"id": "1.2", "status": "done", "commit": "` + commit2 + `"}
  ],
  "verification": [
    {"command": "` + command + `", "exit_code": ` + exit + `}
  ]
}
`
}

// plansTreeHash is treehash.Sum of dir.
func plansTreeHash(t *testing.T, dir string) string { return treehash.Sum(t, dir) }

func TestPlansVerify(t *testing.T) {
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
			r.commit("state", map[string]string{"plans/billing/state/phase-1.json": plansState(c1, c2, "sh src/ok.sh", "0")})
		}, []string{"--rerun"}, 0, []string{"phase 1 (from branch plan/billing/phase-1)", "phase 1  needs_review", "OK: every rule holds"}},
		{"empty commit and hard-coded zero", func(r *plansRepo) {
			c1 := r.commit("model", map[string]string{"src/model.go": "package src\n"})
			c2 := r.commit("nothing to commit", nil)
			r.commit("state", map[string]string{
				"plans/billing/state/phase-1.json": plansState(c1, c2, "echo boom; touch litter; exit 1", "0")})
		}, []string{"--rerun"}, 1, []string{
			`plans/billing/state/phase-1.json:9: task-commits: task "1.2": commit `,
			"changes no file",
			`plans/billing/state/phase-1.json:12: rerun: false green: "echo boom; touch litter; exit 1" recorded exit code 0, re-run exited 1; output tail:` + "\nboom",
			"FAIL: 2 finding(s)"}},
		{"previous head recorded again", func(r *plansRepo) {
			c1 := r.commit("model", map[string]string{"src/model.go": "package src\n"})
			r.commit("state", map[string]string{"plans/billing/state/phase-1.json": plansState(c1, c1, "true", "0")})
		}, nil, 1, []string{`task "1.2": commit `, `is also task "1.1"'s commit`}},
		{"executor sets done and touches phase 2", func(r *plansRepo) {
			c1 := r.commit("model", map[string]string{"src/model.go": "x"})
			c2 := r.commit("api", map[string]string{"web/page.html": "x"})
			st := strings.Replace(plansState(c1, c2, "true", "0"), `"needs_review"`, `"done"`, 1)
			r.commit("state", map[string]string{"plans/billing/state/phase-1.json": st})
		}, nil, 1, []string{"phase-done: an executor ends its phase at needs_review",
			`conflict-zones: web/page.html is in phase 2's conflict zone "web/**"`, "phase 1  needs_review"}},
		{"unknown key", func(r *plansRepo) {
			r.commit("state", map[string]string{"plans/billing/state/phase-1.json": "{\n\"version\": 1,\n\"trust_me\": true}\n"})
		}, nil, 1, []string{"plans/billing/state/phase-1.json:3: trust_me: unknown key"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newPlansRepo(t)
			tc.build(r)
			before := plansTreeHash(t, r.dir)
			code, out, errOut := runCLI(t, append([]string{"plans", "verify", filepath.Join(r.dir, "plans/billing")}, tc.args...)...)
			if code != tc.wantCode {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.wantCode, out, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			if after := plansTreeHash(t, r.dir); after != before {
				t.Errorf("plans verify changed the working tree")
			}
		})
	}
}

func TestPlansVerifyUsage(t *testing.T) {
	r := newPlansRepo(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"plans", "verify"}, "(see 'aepgate plans verify --help')"},
		{[]string{"plans"}, "name a subcommand: verify"},
		{[]string{"plans", "verify", r.dir + "/plans/billing", "--base", "nope"}, "no such commit"},
		{[]string{"plans", "verify", t.TempDir()}, "not a git repository"},
		{[]string{"plans", "verify", r.dir + "/plans/billing", "--phase", "-1"}, "--phase must be 1 or more"},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

func TestPlansVerifyHelp(t *testing.T) {
	code, out, _ := runCLI(t, "plans", "verify", "--help")
	for _, w := range []string{"--rerun", "false green", "Exit codes: 0 every rule holds; 1 a finding; 2"} {
		if code != 0 || !strings.Contains(out, w) {
			t.Errorf("help (exit %d) lacks %q", code, w)
		}
	}
}

func TestPlansVerifyInterrupted(t *testing.T) {
	r := newPlansRepo(t)
	c1 := r.commit("model", map[string]string{"src/model.go": "package src\n"})
	c2 := r.commit("api", map[string]string{"src/api.go": "package src\n"})
	r.commit("state", map[string]string{"plans/billing/state/phase-1.json": plansState(c1, c2, "sleep 30", "0")})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(500*time.Millisecond, cancel)
	var out, errb bytes.Buffer
	start := time.Now()
	code := runFull(ctx, []string{"plans", "verify", filepath.Join(r.dir, "plans/billing"), "--rerun"}, strings.NewReader(""), &out, &errb)
	if code != 130 || time.Since(start) > 20*time.Second {
		t.Errorf("exit %d after %v, want 130 promptly\n%s%s", code, time.Since(start), out.String(), errb.String())
	}
}

func TestPlansVerifyJSON(t *testing.T) {
	r := newPlansRepo(t)
	c1 := r.commit("model", map[string]string{"src/model.go": "package src\n"})
	r.commit("state", map[string]string{"plans/billing/state/phase-1.json": plansState(c1, c1, "true", "0")})
	code, out, errOut := runCLI(t, "plans", "verify", filepath.Join(r.dir, "plans/billing"), "--format", "json")
	var got struct {
		Phase  int  `json:"phase"`
		OK     bool `json:"ok"`
		Phases []struct {
			ID     int    `json:"id"`
			Status string `json:"status"`
		} `json:"phases"`
		Findings []struct {
			Rule string `json:"rule"`
			Line int    `json:"line"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 1 {
		t.Fatalf("exit %d, %v\n%s%s", code, err, out, errOut)
	}
	if got.Phase != 1 || got.OK || len(got.Phases) != 2 || got.Phases[0].Status != "needs_review" ||
		len(got.Findings) != 1 || got.Findings[0].Rule != "task-commits" || got.Findings[0].Line != 9 {
		t.Errorf("report = %+v", got)
	}
	if code, _, errOut := runCLI(t, "plans", "verify", filepath.Join(r.dir, "plans/billing"), "--format", "yaml"); code != 2 {
		t.Errorf("--format yaml: exit %d, stderr %q", code, errOut)
	}
}
