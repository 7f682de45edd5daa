package action

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/scaffold"
)

// treeEnv is the finding's pull request: the base branch holds a clean run
// folder, the head adds 120 lint problems to it.
func treeEnv(t *testing.T) *stepEnv {
	e := newStepEnv(t, writable, manyTasks(), goodBody)
	files := map[string]string{}
	for _, f := range scaffold.Render("widgets") {
		files["docs/run/"+f.Path] = string(f.Content)
	}
	e.vars["GITHUB_EVENT_PATH"] = writeEvent(t, e, e.repo.Commit("main", "clean run folder", files))
	e.vars["INPUT_CHECKS"] = "lint,status,report"
	return e
}

// checkoutOf returns a workspace with commit checked out: a fresh mirror
// of the fake's history up to it.
func checkoutOf(t *testing.T, e *stepEnv, commit string) string {
	ws := mirrorGit(t, e.f.Client(e.f.ActionsToken(e.repo, writable)), commit)
	e.f.ResetLog()
	return ws
}

// mergeOf makes, in the head's workspace, a merge commit of the head's
// tree with parents (given the head's parent, standing in for the base
// branch, and the head), and checks it out, as GitHub's refs/pull/N/merge.
func mergeOf(t *testing.T, e *stepEnv, parents func(base, head string) []string) string {
	ws := e.ws
	args := []string{"commit-tree", e.head + "^{tree}", "-m", "Merge"}
	for _, p := range parents(gitIn(t, ws, nil, "", "rev-parse", e.head+"^"), e.head) {
		args = append(args, "-p", p)
	}
	merge := gitIn(t, ws, []string{"GIT_AUTHOR_NAME=g", "GIT_AUTHOR_EMAIL=g@example.com", "GIT_COMMITTER_NAME=g", "GIT_COMMITTER_EMAIL=g@example.com"}, "", args...)
	gitIn(t, ws, nil, "", "checkout", "-q", "--detach", merge)
	return ws
}

// TestActionJudgesOnlyTheHead: the step publishes on the pull request's
// head only what it judged on that head (or on GitHub's merge commit of
// it). A workspace at the base — what pull_request_target checks out by
// default — is refused: every run on the head fails naming both SHAs, and
// the step exits 2. The negative control accepts any checkout (the
// Checkout option injected off): the base's clean folder then passes
// aep/lint on a head with 240 problems (120 tasks without a Report line,
// each also added to the auditor's guide on the pull request) — the
// finding.
func TestActionJudgesOnlyTheHead(t *testing.T) {
	acceptAny := func(context.Context, Event) (string, error) { return "", nil }
	tests := []struct {
		name      string
		workspace func(t *testing.T, e *stepEnv) string
		checkout  func(context.Context, Event) (string, error)
		wantCode  int
		wantLint  string // conclusion and title prefix
	}{
		{"head", func(t *testing.T, e *stepEnv) string { return e.ws }, nil, ExitFailed, "failure 240 problems"},
		{"merge commit of the head", func(t *testing.T, e *stepEnv) string {
			return mergeOf(t, e, func(base, head string) []string { return []string{base, head} })
		}, nil, ExitFailed, "failure 240 problems"},
		{"base", func(t *testing.T, e *stepEnv) string { return checkoutOf(t, e, e.base) }, nil, ExitInput, "failure not judged: the workspace is at "},
		{"merge with the head as first parent", func(t *testing.T, e *stepEnv) string {
			return mergeOf(t, e, func(base, head string) []string { return []string{head, base} })
		}, nil, ExitInput, "failure not judged: the workspace is at "},
		{"not a git checkout", func(t *testing.T, e *stepEnv) string {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "docs/run/execution-guide.md"), "# guide\n")
			return dir
		}, nil, ExitInput, "failure not judged: the workspace is not this commit"},
		{"negative control: any checkout accepted", func(t *testing.T, e *stepEnv) string { return checkoutOf(t, e, e.base) },
			acceptAny, ExitOK, "success clean"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := treeEnv(t)
			e.ws = tt.workspace(t, e)
			e.vars["GITHUB_WORKSPACE"], e.checkout = e.ws, tt.checkout
			if code := e.run(); code != tt.wantCode {
				t.Errorf("exit %d, want %d\n%s", code, tt.wantCode, e.stdout.String())
			}
			runs := e.runs()
			if lint := runs["aep/lint"]; !strings.HasPrefix(lint.Conclusion+" "+lint.Title, tt.wantLint) {
				t.Errorf("aep/lint = %s %q, want %q…", lint.Conclusion, lint.Title, tt.wantLint)
			}
			if tt.wantCode != ExitInput {
				return
			}
			for name, r := range runs {
				if r.Conclusion != "failure" || !strings.Contains(r.Summary, e.head) {
					t.Errorf("%s = %s, summary lacks the head %s:\n%s", name, r.Conclusion, e.head, r.Summary)
				}
			}
			if len(runs) != 3 {
				t.Errorf("%d runs written, want 3 (lint, status, report, all refused)", len(runs))
			}
			out := e.stdout.String()
			if !strings.Contains(out, "::error::aepgate: ") || !strings.Contains(out, "ref: ${{ github.event.pull_request.head.sha }}") {
				t.Errorf("no workflow error saying how to fix the checkout:\n%s", out)
			}
		})
	}
}

// TestActionRefusalNamesBothSHAs: the base checkout's refusal names the
// workspace's HEAD and the head, in the check run and the job summary.
func TestActionRefusalNamesBothSHAs(t *testing.T) {
	e := treeEnv(t)
	e.ws = checkoutOf(t, e, e.base)
	e.vars["GITHUB_WORKSPACE"] = e.ws
	e.run()
	lint := e.runs()["aep/lint"]
	summary := e.file("GITHUB_STEP_SUMMARY")
	for _, s := range []string{e.base, e.head} {
		if !strings.Contains(lint.Summary, s) || !strings.Contains(summary, s) {
			t.Errorf("%s missing from the refusal:\n%s\n---\n%s", s, lint.Summary, summary)
		}
	}
	if _, err := os.Stat(filepath.Join(e.ws, ".git")); err != nil {
		t.Fatal(err)
	}
}
