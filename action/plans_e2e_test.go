package action

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-github/v62/github"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

const plansBranch = "plan/billing/phase-1"

const plansProgress = `{
  "version": 1,
  "slug": "billing",
  "owner": "olivia",
  "phases": [
    {"id": 1, "title": "invoices", "conflict_zones": ["src/**"],
     "tasks": [{"id": "1.1", "title": "model"}, {"id": "1.2", "title": "check"}]},
    {"id": 2, "title": "web", "depends_on": [1], "conflict_zones": ["web/**"], "tasks": [{"id": "2.1", "title": "page"}]}
  ]
}
`

func plansStateFile(c1, c2, recorded string) string {
	return plansStateWith(c1, c2, `[{"command": "sh src/check.sh", "exit_code": `+recorded+`}]`)
}

// plansStateWith is plansStateFile with the given verification array.
func plansStateWith(c1, c2, verification string) string {
	return `{
  "version": 1,
  "phase": 1,
  "executor": "exec-bot",
  "branch": "plan/billing/phase-1",
  "status": "needs_review",
  "tasks": [
    {"id": "1.1", "status": "done", "commit": "` + c1 + `"},
    {"id": "1.2", "status": "done", "commit": "` + c2 + `"}
  ],
  "verification": ` + verification + `
}
`
}

// newPlansEnv builds a phase-1 pull request in the fake GitHub, mirrors its
// commits into a real git repository as the workspace, and writes the
// pull_request event. A lying executor records an empty commit and a zero
// exit code for a check that exits 1.
func newPlansEnv(t *testing.T, lie bool) *stepEnv {
	t.Helper()
	return newPlansEnvWith(t, plansSetup{lie: lie, progress: plansProgress})
}

// plansHandoff is HANDOFF.md with phase 1's handoff and the six sections
// the handoff rule asks for when a phase moves to needs_review.
const plansHandoff = "## Handoff — phase 1 — 2026-07-25\n\n### Where things stand\n### What changed\n" +
	"### Decisions and why\n### Ruled out\n### Blockers\n### Next step\n"

// plansSetup varies newPlansEnvWith: the contract on main, and the state
// file's verification array (empty: one honest "sh src/check.sh").
type plansSetup struct {
	lie          bool
	progress     string
	verification string
}

// newPlansEnvWith is newPlansEnv for s.
func newPlansEnvWith(t *testing.T, s plansSetup) *stepEnv {
	t.Helper()
	lie := s.lie
	e := &stepEnv{t: t, f: ghfake.New(t)}
	e.repo = e.f.CreateRepo("acme/widgets")
	e.base = e.repo.Commit("main", "contract", map[string]string{".github/aepgate.yml": baseConfig,
		"plans/billing/progress.json": s.progress, "src/check.sh": "echo checking; exit 0\n",
		"plans/billing/HANDOFF.md": plansHandoff})
	e.repo.Branch(plansBranch, "main")
	c1 := e.repo.Commit(plansBranch, "model", map[string]string{"src/model.go": "package src\n"})
	c2 := e.repo.Commit(plansBranch, "check", map[string]string{"src/check.sh": "echo checking; exit 0 # tuned\n"})
	if lie {
		c2 = e.repo.Commit(plansBranch, "nothing to commit", map[string]string{"src/model.go": "package src\n"})
		e.repo.Commit(plansBranch, "check", map[string]string{"src/check.sh": "echo broken; exit 1\n"})
	}
	state := plansStateFile(c1, c2, "0")
	if s.verification != "" {
		state = plansStateWith(c1, c2, s.verification)
	}
	e.head = e.repo.Commit(plansBranch, "state", map[string]string{"plans/billing/state/phase-1.json": state})
	for range prNumber - 1 {
		e.repo.OpenIssue("octo", "earlier issue", "")
	}
	e.repo.OpenPR("exec-bot", plansBranch, "main", "Phase 1", "Phase 1 of billing.")
	token := e.f.ActionsToken(e.repo, writable)
	e.ws = mirrorGit(t, e.f.Client(token), e.head)
	var ev map[string]any
	if err := json.Unmarshal([]byte(e.event("Phase 1 of billing.")), &ev); err != nil {
		t.Fatal(err)
	}
	pr := ev["pull_request"].(map[string]any)
	pr["head"].(map[string]any)["ref"] = plansBranch
	pr["user"].(map[string]any)["login"] = "exec-bot"
	raw, _ := json.Marshal(ev)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "event.json"), string(raw))
	e.vars = map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "acme/widgets", "GITHUB_EVENT_NAME": "pull_request",
		"GITHUB_EVENT_PATH": filepath.Join(dir, "event.json"), "GITHUB_SHA": strings.Repeat("e", 40),
		"GITHUB_API_URL": strings.TrimSuffix(e.f.URL(), "/"), "GITHUB_WORKSPACE": e.ws,
		"GITHUB_OUTPUT": filepath.Join(dir, "output"), "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"),
		"GITHUB_SERVER_URL": "https://github.com", "GITHUB_RUN_ID": "4242",
		"INPUT_TOKEN": token, "INPUT_CHECKS": "plans", "INPUT_RERUN": "true",
	}
	return e
}

// mirrorGit writes the fake's commits reachable from head into a new git
// repository, object for object (the fake's SHAs are git's), and checks
// head out there.
func mirrorGit(t *testing.T, c *github.Client, head string) string {
	t.Helper()
	dir := t.TempDir()
	gitIn(t, dir, nil, "", "init", "-q")
	done := map[string]bool{}
	var put func(sha string)
	put = func(sha string) {
		if done[sha] {
			return
		}
		done[sha] = true
		cm, _, err := c.Git.GetCommit(context.Background(), "acme", "widgets", sha)
		if err != nil {
			t.Fatal(err)
		}
		var parents []string
		for _, p := range cm.Parents {
			put(p.GetSHA())
			parents = append(parents, "-p", p.GetSHA())
		}
		tree := mirrorTree(t, c, dir, cm.GetTree().GetSHA())
		a, m := cm.GetAuthor(), cm.GetCommitter()
		env := []string{"GIT_AUTHOR_NAME=" + a.GetName(), "GIT_AUTHOR_EMAIL=" + a.GetEmail(),
			fmt.Sprintf("GIT_AUTHOR_DATE=@%d +0000", a.GetDate().Unix()), "GIT_COMMITTER_NAME=" + m.GetName(),
			"GIT_COMMITTER_EMAIL=" + m.GetEmail(), fmt.Sprintf("GIT_COMMITTER_DATE=@%d +0000", m.GetDate().Unix())}
		if got := gitIn(t, dir, env, cm.GetMessage(), append([]string{"commit-tree", tree, "-F", "-"}, parents...)...); got != sha {
			t.Fatalf("mirrored commit %s became %s", sha, got)
		}
	}
	put(head)
	gitIn(t, dir, nil, "", "checkout", "-q", "--detach", head)
	return dir
}

// mirrorTree writes a tree's blobs into a fresh index and returns the
// written tree's SHA, which must be the fake's.
func mirrorTree(t *testing.T, c *github.Client, dir, sha string) string {
	tree, _, err := c.Git.GetTree(context.Background(), "acme", "widgets", sha, true)
	if err != nil {
		t.Fatal(err)
	}
	index := []string{"GIT_INDEX_FILE=" + filepath.Join(dir, ".git", "mirror-index")}
	gitIn(t, dir, index, "", "read-tree", "--empty")
	for _, en := range tree.Entries {
		if en.GetType() != "blob" {
			continue
		}
		blob, _, err := c.Git.GetBlob(context.Background(), "acme", "widgets", en.GetSHA())
		if err != nil {
			t.Fatal(err)
		}
		content, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(blob.GetContent(), "\n", ""))
		if err != nil {
			t.Fatal(err)
		}
		if got := gitIn(t, dir, nil, string(content), "hash-object", "-w", "--stdin"); got != en.GetSHA() {
			t.Fatalf("mirrored blob %s became %s", en.GetSHA(), got)
		}
		gitIn(t, dir, index, "", "update-index", "--add", "--cacheinfo", en.GetMode()+","+en.GetSHA()+","+en.GetPath())
	}
	if got := gitIn(t, dir, index, "", "write-tree"); got != sha {
		t.Fatalf("mirrored tree %s became %s", sha, got)
	}
	return sha
}

func gitIn(t *testing.T, dir string, env []string, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(cmd.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestActionPlansHonest(t *testing.T) {
	e := newPlansEnv(t, false)
	if code := e.run(); code != ExitOK {
		t.Fatalf("exit %d, want 0\n%s", code, e.stdout.String())
	}
	r, ok := e.runs()[checks.NamePlans]
	if !ok || r.Conclusion != "success" || r.Title != "1 plan folder(s) agree with the history" || len(r.Annotations) != 0 {
		t.Errorf("aep/plans = %+v", r)
	}
	if !strings.Contains(r.Summary, "| 1 | invoices | needs_review |") {
		t.Errorf("summary lacks the derived status:\n%s", r.Summary)
	}
}

func TestActionPlansLyingExecutor(t *testing.T) {
	e := newPlansEnv(t, true)
	if code := e.run(); code != ExitFailed {
		t.Fatalf("exit %d, want 1\n%s", code, e.stdout.String())
	}
	r := e.runs()[checks.NamePlans]
	var got []string
	for _, a := range r.Annotations {
		got = append(got, fmt.Sprintf("%s:%d %s", a.Path, a.StartLine, a.Title))
	}
	want := []string{
		"plans/billing/state/phase-1.json:9 plans: task-commits",
		"plans/billing/state/phase-1.json:11 plans: rerun",
	}
	if r.Conclusion != "failure" || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("aep/plans %s, annotations %v; want failure, %v", r.Conclusion, got, want)
	}
	if !strings.Contains(r.Summary, "changes no file") || !strings.Contains(r.Summary, "false green") {
		t.Errorf("summary lacks the findings:\n%s", r.Summary)
	}
}
