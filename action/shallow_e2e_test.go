package action

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/plangit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// shallowMerge makes e's workspace what actions/checkout leaves on a
// pull_request event with its defaults: GitHub's merge commit of the head
// into the base (refs/pull/N/merge), fetched at depth 1 over file:// into
// a fresh repository, so that neither the base nor the head commit is in
// the clone. It returns the merge commit.
func shallowMerge(t *testing.T, e *stepEnv) string {
	t.Helper()
	env := []string{"GIT_AUTHOR_NAME=GitHub", "GIT_AUTHOR_EMAIL=noreply@github.com", "GIT_COMMITTER_NAME=GitHub", "GIT_COMMITTER_EMAIL=noreply@github.com"}
	merge := gitIn(t, e.ws, env, "", "commit-tree", e.head+"^{tree}", "-p", e.base, "-p", e.head, "-m", "Merge "+e.head+" into "+e.base)
	gitIn(t, e.ws, nil, "", "update-ref", "refs/pull/34/merge", merge)
	clone := t.TempDir()
	gitIn(t, clone, nil, "", "init", "-q")
	gitIn(t, clone, nil, "", "fetch", "-q", "--no-tags", "--depth=1", "file://"+e.ws, "+refs/pull/34/merge:refs/remotes/pull/34/merge")
	gitIn(t, clone, nil, "", "checkout", "-q", "--detach", "refs/remotes/pull/34/merge")
	if got := gitIn(t, clone, nil, "", "rev-parse", "--is-shallow-repository"); got != "true" {
		t.Fatalf("the clone is not shallow: %s", got)
	}
	for _, sha := range []string{e.base, e.head} {
		if exec.Command("git", "-C", clone, "cat-file", "-e", sha+"^{commit}").Run() == nil {
			t.Fatalf("the depth-1 clone holds %s", sha)
		}
	}
	e.ws = clone
	e.vars["GITHUB_WORKSPACE"], e.vars["GITHUB_SHA"] = clone, merge
	return merge
}

// oldWalk is the plans check's history before this change: always the
// workspace's git, whatever the clone holds.
func oldWalk(ctx context.Context, ev Event) (PlanHistory, error) {
	return plangit.Open(ctx, ev.Workspace)
}

// newBumpEnv is Dependabot's bump of go.mod in a repository with no plans/
// folder and no run folder, checked out as actions/checkout's defaults
// leave it.
func newBumpEnv(t *testing.T) *stepEnv {
	t.Helper()
	e := &stepEnv{t: t, f: ghfake.New(t)}
	e.repo = e.f.CreateRepo("acme/widgets")
	e.base = e.repo.Commit("main", "init", map[string]string{".github/aepgate.yml": "version: 1\n",
		"go.mod": "module acme/widgets\n\nrequire golang.org/x/text v0.20.0\n"})
	e.repo.Branch("unit-12", "main")
	e.head = e.repo.Commit("unit-12", "Bump golang.org/x/text", map[string]string{"go.mod": "module acme/widgets\n\nrequire golang.org/x/text v0.21.0\n"})
	for range prNumber - 1 {
		e.repo.OpenIssue("octo", "earlier issue", "")
	}
	const body = "Bumps golang.org/x/text from 0.20.0 to 0.21.0."
	e.repo.OpenPR("dependabot[bot]", "unit-12", "main", "Bump golang.org/x/text", body)
	token := e.f.ActionsToken(e.repo, writable)
	e.ws = mirrorGit(t, e.f.Client(token), e.head)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "event.json"), e.event(body))
	e.vars = map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "acme/widgets", "GITHUB_EVENT_NAME": "pull_request",
		"GITHUB_EVENT_PATH": filepath.Join(dir, "event.json"),
		"GITHUB_API_URL":    strings.TrimSuffix(e.f.URL(), "/"),
		"GITHUB_OUTPUT":     filepath.Join(dir, "output"), "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"),
		"GITHUB_SERVER_URL": "https://github.com", "GITHUB_RUN_ID": "4242", "INPUT_TOKEN": token,
	}
	asAuthor(t, e, "dependabot[bot]", "Bot", "dependencies")
	shallowMerge(t, e)
	return e
}

// TestActionShallowBumpSkipsPlans is the quick start on a Dependabot bump:
// actions/checkout's depth-1 clone of the merge commit, a repository with
// no plans/ folder. aep/plans does not run (GitHub's comparison says no
// plan folder changed), no check fails and the step exits 0. The negative
// control walks the workspace's git as before (LocalHistory injected):
// base..head is not in the clone, and aep/plans fails the bump.
func TestActionShallowBumpSkipsPlans(t *testing.T) {
	tests := []struct {
		name    string
		history func(context.Context, Event) (PlanHistory, error)
		code    int
		plans   string // aep/plans' conclusion; "" when it did not run
	}{
		{"history from the API", nil, ExitOK, ""},
		{"negative control: the old git walk", oldWalk, ExitFailed, "failure"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newBumpEnv(t)
			e.history = tt.history
			if code := e.run(); code != tt.code {
				t.Fatalf("exit %d, want %d\n%s", code, tt.code, e.stdout.String())
			}
			runs := e.runs()
			if got := runs[checks.NamePlans].Conclusion; got != tt.plans {
				t.Errorf("aep/plans = %q (%s), want %q", got, runs[checks.NamePlans].Summary, tt.plans)
			}
			for name, r := range runs {
				if name != checks.NamePlans && r.Conclusion == "failure" {
					t.Errorf("%s failed on a dependency bump: %s", name, r.Title)
				}
			}
		})
	}
}

// TestActionShallowPlansFromAPI: a pull request that changes plans/,
// checked out as actions/checkout's defaults leave it, is judged from
// GitHub's comparison and contents: the honest executor passes, the lying
// one is caught by the commit rule (its empty commit's files come from the
// API) and by the re-run in the merge commit's tree. The negative control
// walks the workspace's git as before: nothing is judged, the check fails
// with git's error.
func TestActionShallowPlansFromAPI(t *testing.T) {
	tests := []struct {
		name    string
		lie     bool
		history func(context.Context, Event) (PlanHistory, error)
		want    string // in the summary
		anns    []string
	}{
		{"honest", false, nil, "| 1 | invoices | needs_review |", nil},
		{"lying", true, nil, "changes no file", []string{"plans/billing/state/phase-1.json:9 plans: task-commits", "plans/billing/state/phase-1.json:11 plans: rerun"}},
		{"negative control: the old git walk", false, oldWalk, "list commits", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newPlansEnv(t, tt.lie)
			shallowMerge(t, e)
			e.history = tt.history
			e.run()
			r := e.runs()[checks.NamePlans]
			wantConclusion := "success"
			if tt.lie || tt.history != nil {
				wantConclusion = "failure"
			}
			if r.Conclusion != wantConclusion || !strings.Contains(r.Summary, tt.want) {
				t.Errorf("aep/plans %s, want %s with %q in:\n%s", r.Conclusion, wantConclusion, tt.want, r.Summary)
			}
			var got []string
			for _, a := range r.Annotations {
				got = append(got, fmt.Sprintf("%s:%d %s", a.Path, a.StartLine, a.Title))
			}
			if strings.Join(got, "\n") != strings.Join(tt.anns, "\n") {
				t.Errorf("annotations %q, want %q", got, tt.anns)
			}
		})
	}
}

// TestActionShallowWithoutToken: with neither the history in the clone
// nor a token to read it, a bump in a repository without plan folders
// still passes (aep/plans does not run, the job summary says why), while
// a pull request whose tree holds a plan folder fails aep/plans with one
// line naming the missing input.
func TestActionShallowWithoutToken(t *testing.T) {
	t.Run("no plan folder", func(t *testing.T) {
		e := newBumpEnv(t)
		delete(e.vars, "INPUT_TOKEN")
		if code := e.run(); code != ExitOK {
			t.Fatalf("exit %d, want 0\n%s", code, e.stdout.String())
		}
		if out := e.stdout.String(); strings.Contains(out, "aep/plans:") {
			t.Errorf("aep/plans ran:\n%s", out)
		}
		if s := e.file("GITHUB_STEP_SUMMARY"); !strings.Contains(s, "holds no plan folder") {
			t.Errorf("the job summary does not say why aep/plans did not run:\n%s", s)
		}
	})
	t.Run("plan folder", func(t *testing.T) {
		e := newPlansEnv(t, false)
		shallowMerge(t, e)
		delete(e.vars, "INPUT_TOKEN")
		if code := e.run(); code != ExitFailed {
			t.Fatalf("exit %d, want 1\n%s", code, e.stdout.String())
		}
		const want = "are not in the workspace (a shallow clone) and no token was given to read them from GitHub; give the token input (contents: read) or check out with fetch-depth: 0"
		if out, s := e.stdout.String(), e.file("GITHUB_STEP_SUMMARY"); !strings.Contains(out, "aep/plans: failure") || !strings.Contains(s, want) {
			t.Errorf("aep/plans does not fail naming the missing input:\n%s\n%s", out, s)
		}
	})
}

// TestActionShallowVerdicts: in actions/checkout's depth-1 clone of the
// merge commit, aep/verdicts blames the compliance log with GitHub's
// blame at the head: an auditor's verdict passes, an unlisted approver's
// fails on its line (10). The negative control blames with the
// workspace's git as before: the head is not in the clone, and the check
// fails on every pull request, the auditor's included.
func TestActionShallowVerdicts(t *testing.T) {
	tests := []struct {
		name     string
		approver string
		history  func(context.Context, Event) (PlanHistory, error)
		want     string
		line     int    // the refused line; 0 for none
		summary  string // in the summary
	}{
		{"an auditor approves", "ann", nil, "success", 0, ""},
		{"someone unlisted approves", "mallory", nil, "failure", 10, ""},
		{"negative control: git blame in the clone", "ann", oldWalk, "failure", 0, "git blame"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newVerdictsEnv(t, "ann", signedBy(tt.approver))
			shallowMerge(t, e)
			e.history = tt.history
			e.run()
			r := e.runs()[checks.NameVerdicts]
			if r.Conclusion != tt.want || !strings.Contains(r.Summary, tt.summary) {
				t.Fatalf("aep/verdicts = %s %q, want %s with %q\n%s", r.Conclusion, r.Title, tt.want, tt.summary, r.Summary)
			}
			var lines []int
			for _, a := range r.Annotations {
				lines = append(lines, a.StartLine)
			}
			if want := []int{tt.line}; tt.line != 0 && fmt.Sprint(lines) != fmt.Sprint(want) || tt.line == 0 && len(lines) != 0 {
				t.Errorf("annotations on lines %v, want %d", lines, tt.line)
			}
		})
	}
}

// TestBlameMatchesGit: the fake's GraphQL blame, read through
// gh.ActionClient, attributes every line as git blame does in a full
// clone of the same history: lines added, changed in the middle, kept
// across a merge.
func TestBlameMatchesGit(t *testing.T) {
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	repo.CommitBy("ann", "main", "one", map[string]string{"log.md": "a\nb\nc\nd\n"})
	repo.Branch("side", "main")
	repo.CommitBy("exec", "side", "two", map[string]string{"log.md": "a\nb\nX\nc\nd\ne\n"})
	repo.CommitBy("mallory", "main", "three", map[string]string{"other.md": "o\n"})
	repo.OpenPR("exec", "side", "main", "Side", "").Merge(ghfake.MergeCommit)
	repo.CommitBy("ann", "main", "four", map[string]string{"log.md": "a\nY\nX\nc\nd\ne\nf\n"})
	head := repo.Commit("main", "five", map[string]string{"log.md": "Z\na\nY\nX\nc\nd\ne\nf\n"})
	token := f.ActionsToken(repo, writable)
	ws := mirrorGit(t, f.Client(token), head)
	want, err := gitBlamer{dir: ws}.blame(context.Background(), head, "log.md")
	if err != nil {
		t.Fatal(err)
	}
	c, err := gh.NewActionClient(strings.TrimSuffix(f.URL(), "/"), token, gh.ActionClientOptions{HTTPClient: f.HTTPClient()})
	if err != nil {
		t.Fatal(err)
	}
	got, err := apiBlamer{api: c, owner: "acme", repo: "widgets"}.blame(context.Background(), head, "log.md")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("GitHub's blame differs from git's (-git +github):\n%s", diff)
	}
	if _, err := (apiBlamer{api: c, owner: "acme", repo: "widgets"}).blame(context.Background(), head, "missing.md"); err == nil {
		t.Error("a missing file was blamed")
	}
}
