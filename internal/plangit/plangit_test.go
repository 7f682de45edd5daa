package plangit

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/plans"
	"github.com/google/go-cmp/cmp"
)

// repo is a scratch git repository for tests.
type repo struct {
	t   *testing.T
	dir string
}

func newRepo(t *testing.T) *repo {
	r := &repo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	return r
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-C", r.dir}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// commit writes files (empty content deletes) and commits them.
func (r *repo) commit(msg string, files map[string]string) string {
	r.t.Helper()
	for p, body := range files {
		full := filepath.Join(r.dir, p)
		if body == "" {
			os.Remove(full)
			continue
		}
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

const progress = `{"version": 1, "slug": "p", "owner": "o", "phases": [{"id": 1, "title": "a", "tasks": [{"id": "1.1", "title": "x"}]}]}`

func TestLoadAndHistory(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	base := r.commit("base", map[string]string{"plans/p/progress.json": progress, "README": "r",
		"plans/p/phases/phase-1-a.md": "### Task 1.1: x\nFiles:\n- `src/a.go`\n", "plans/p/phases/notes.md": "not a brief"})
	r.git("checkout", "-q", "-b", "plan/p/phase-1")
	work := r.commit("work", map[string]string{"src/a.go": "package a"})
	empty := r.commit("nothing", nil)
	state := `{"version": 1, "phase": 1, "executor": "e", "status": "needs_review",
"tasks": [{"id": "1.1", "status": "done", "commit": "` + work + `"}]}`
	head := r.commit("state", map[string]string{"plans/p/state/phase-1.json": state})

	g, err := Open(ctx, r.dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Branch(ctx); got != "plan/p/phase-1" {
		t.Errorf("Branch = %q", got)
	}
	if got, err := g.DefaultBase(ctx, head); err != nil || got != base {
		t.Errorf("DefaultBase = %q, %v; want %q", got, err, base)
	}
	dirs, err := g.Folders(ctx, head)
	if diff := cmp.Diff([]string{"plans/p"}, dirs); err != nil || diff != "" {
		t.Errorf("Folders: %v %s", err, diff)
	}
	p, err := g.Load(ctx, head, "plans/p")
	if err != nil || p.Progress == nil || p.States[1] == nil || p.States[1].Tasks[0].Commit != work ||
		len(p.Briefs) != 1 || p.Briefs[1].Task("1.1") == nil || p.Briefs[1].Task("1.1").Files[0] != "src/a.go" {
		t.Fatalf("Load = %+v, %v", p, err)
	}
	commits, changed, err := g.History(ctx, base, head)
	if err != nil {
		t.Fatal(err)
	}
	wantCommits := []plans.Commit{{SHA: work, Files: []string{"src/a.go"}}, {SHA: empty}, {SHA: head, Files: []string{"plans/p/state/phase-1.json"}}}
	if diff := cmp.Diff(wantCommits, commits); diff != "" {
		t.Errorf("commits (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"plans/p/state/phase-1.json", "src/a.go"}, changed); diff != "" {
		t.Errorf("changed (-want +got):\n%s", diff)
	}
}

func TestLoadErrors(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	head := r.commit("bad", map[string]string{"plans/p/progress.json": progress,
		"plans/p/state/phase-1.json": "{\n\"version\": 1,\n\"bogus\": 1}", "plans/p/state/phase-2.review.json": `{"version": 1}`})
	g, err := Open(ctx, r.dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.Load(ctx, head, "plans/p")
	if err == nil || !strings.Contains(err.Error(), "plans/p/state/phase-1.json:3: bogus: unknown key") {
		t.Errorf("Load error = %v", err)
	}
}
