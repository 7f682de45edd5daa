package readback

import (
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/app/writer"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/replay"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/coverage"
	"github.com/aepgate/aepgate/protocol/readbackrules"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// gitWork is a repository with a working tree the test builds history in;
// the Judge's Clones fetch from it as a file:// remote.
type gitWork struct {
	t   *testing.T
	dir string
}

func newGitWork(t *testing.T) *gitWork {
	t.Helper()
	w := &gitWork{t: t, dir: t.TempDir()}
	w.git("init", "-q", "-b", "main")
	return w
}

func (w *gitWork) git(args ...string) string {
	w.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "-C", w.dir}, args...)...)
	cmd.Env = replay.Env(os.Environ())
	out, err := cmd.CombinedOutput()
	if err != nil && args[0] != "merge" {
		w.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (w *gitWork) commit(msg string, files map[string]string) string {
	w.t.Helper()
	for p, c := range files {
		if err := os.WriteFile(filepath.Join(w.dir, p), []byte(c), 0o644); err != nil {
			w.t.Fatal(err)
		}
		w.git("add", "--", p)
	}
	w.git("commit", "-q", "--allow-empty", "-m", msg)
	return w.git("rev-parse", "HEAD")
}

// mergeCommit audits a feature branch, moves main and merges the audited
// head with a merge commit that also writes extra (nil: a clean merge).
func mergeCommit(t *testing.T, extra map[string]string) (w *gitWork, head, shipped string, parents []string) {
	w = newGitWork(t)
	w.commit("base", map[string]string{"f.txt": "one\ntwo\n", "g.txt": "g\n"})
	w.git("checkout", "-q", "-b", "feature")
	head = w.commit("feature", map[string]string{"f.txt": "one\nTWO\n", "new.txt": "new\n"})
	w.git("checkout", "-q", "main")
	moved := w.commit("main moves", map[string]string{"h.txt": "h\n"})
	w.git("merge", "--no-ff", "--no-commit", head)
	shipped = w.commit("Merge pull request #3", extra)
	return w, head, shipped, []string{moved, head}
}

// secondParentOnly is the merge-commit rule without a tree compare (the
// readback before coverage): a merge whose second parent is the audited
// head counts as replayed, whatever its tree.
type secondParentOnly struct{ CoverageSource }

func (s secondParentOnly) Coverage(ctx context.Context, owner, repo string, in replay.Input) (coverage.Observation, coverage.Result, error) {
	o, res, err := s.CoverageSource.Coverage(ctx, owner, repo, in)
	if err == nil && len(o.ShippedParents) == 2 && o.ShippedParents[1] == in.AuditedHead {
		res = coverage.Result{Class: coverage.Replay}
	}
	return o, res, err
}

// TestMergeCommitTreeCompared: a merge commit whose second parent is the
// audited head but which carries an edit of its own (g.txt) fails the
// readback under both rules, naming the path; a clean merge commit onto a
// moved main is certified. The negative control hands the Judge the rule
// without the tree compare (secondParentOnly): the extra edit is then
// certified.
func TestMergeCommitTreeCompared(t *testing.T) {
	tests := []struct {
		name    string
		extra   map[string]string
		rule    string
		noTree  bool
		written []string
	}{
		{"extra edit, replay", map[string]string{"g.txt": "edited in the merge\n"}, config.CoverageReplay, false, []string{"aepgate/readback completed failure"}},
		{"extra edit, strict", map[string]string{"g.txt": "edited in the merge\n"}, config.CoverageStrict, false, []string{"aepgate/readback completed failure"}},
		{"clean merge, replay", nil, config.CoverageReplay, false, []string{"aepgate/readback completed success", "aepgate/certificate completed success"}},
		{"clean merge, strict", nil, config.CoverageStrict, false, []string{"aepgate/readback completed success", "aepgate/certificate completed success"}},
		{"negative control: extra edit without the tree compare", map[string]string{"g.txt": "edited in the merge\n"}, config.CoverageStrict, true,
			[]string{"aepgate/readback completed success", "aepgate/certificate completed success"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, head, shipped, parents := mergeCommit(t, tt.extra)
			var source CoverageSource = &Clones{Dir: t.TempDir(), Remote: func(context.Context, string, string) (replay.Remote, error) {
				return replay.Remote{URL: "file://" + w.dir}, nil
			}}
			if tt.noTree {
				source = secondParentOnly{source}
			}
			f := judgeMerge(t, tt.rule, source, head, shipped, parents)
			if diff := cmp.Diff(tt.written, f.written); diff != "" {
				t.Fatalf("written (-want +got):\n%s", diff)
			}
			if sum := f.summaries["aepgate/readback"]; tt.extra != nil && !tt.noTree && (!strings.Contains(sum, "coverage-residual") || !strings.Contains(sum, "g.txt") || !strings.Contains(sum, "+edited in the merge")) {
				t.Errorf("readback does not name g.txt and its hunk:\n%s", sum)
			}
		})
	}
}

// judgeMerge reads back pull request 3 merged as shipped (parents) from
// audited head, with source and rule, its runs green, and returns what
// the Judge wrote.
func judgeMerge(t *testing.T, rule string, source CoverageSource, head, shipped string, parents []string) *fakeGitHub {
	t.Helper()
	merged := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	ci := func(id int64, at, branch, event string) readbackrules.Run {
		return readbackrules.Run{ID: id, Workflow: "ci", HeadSHA: at, Branch: branch, Event: event, Status: "completed", Conclusion: "success", Attempt: 1}
	}
	m := &gh.MergedPull{Number: 3, Body: "Work-unit: #5", Merged: true, MergedAt: merged, HeadSHA: head, HeadTree: sha("e"),
		BaseRef: "main", DefaultBranch: "main", MergeSHA: shipped, MergeTree: sha("d"), MergeParents: parents, HeadKnown: true,
		PRRuns:   []readbackrules.Run{ci(1, head, "work", "pull_request")},
		HeadRuns: []snapshot.ExistingRun{{ID: 9, Name: "aepgate/gates", Status: "completed", Conclusion: "success"}}}
	f := &fakeGitHub{pull: m, main: []readbackrules.Run{ci(2, shipped, "main", "push")}}
	cfg := config.Default()
	cfg.RequiredWorkflows.Readback, cfg.Readback.Coverage = []string{"ci"}, rule
	j := &Judge{GitHub: GitHub{Read: f, Label: f}, W: writer.Writer{Pub: f, Ledger: f}, Locks: f, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Now: func() time.Time { return merged.Add(time.Minute) },
		Rules: Rules{
			Audited: func(_ context.Context, _, _ string, m *gh.MergedPull) (Audit, error) {
				return Audit{SHA: m.HeadSHA, Auditor: "carol", ReviewID: 7, Verdict: "PASS"}, nil
			},
			Config: func(snapshot.ConfigFile) (*config.Config, error) { return cfg, nil }},
		Cache: &Ancestry{}, Coverage: source}
	if err := j.Run(context.Background(), Input{Event: "push", Owner: "acme", Repo: "widgets"}, Target{PR: 3}); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestClonesRebaseOfSeveralCommits: a rebase of two audited commits (the
// second rewrites the file the first added, so the change does not replay
// onto the first) onto a moved main is replayed onto main before them
// (the push's "before"), which the Clones find without the push; a rename
// onto a base that edited the renamed file replays too. The clone fetches
// once.
func TestClonesRebaseOfSeveralCommits(t *testing.T) {
	w := newGitWork(t)
	w.commit("base", map[string]string{"f.txt": "one\ntwo\n", "old.txt": "a\nb\nc\nd\n"})
	w.git("checkout", "-q", "-b", "feature")
	w.commit("one", map[string]string{"a.txt": "a\n"})
	w.git("mv", "old.txt", "renamed.txt")
	head := w.commit("two", map[string]string{"a.txt": "A\n"})
	w.git("checkout", "-q", "main")
	moved := w.commit("main moves", map[string]string{"old.txt": "a\nb\nc\nD\n"})
	w.git("cherry-pick", head+"~1", head)
	shipped := w.git("rev-parse", "HEAD")
	fetches := 0
	c := &Clones{Dir: t.TempDir(), Remote: func(context.Context, string, string) (replay.Remote, error) {
		fetches++
		return replay.Remote{URL: "file://" + w.dir}, nil
	}}
	for range 2 {
		o, res, err := c.Coverage(context.Background(), "acme", "widgets", replay.Input{AuditedHead: head, Shipped: shipped})
		if err != nil {
			t.Fatal(err)
		}
		if res.Class != coverage.Replay || o.Onto != moved {
			t.Fatalf("coverage %s (%s) onto %s, want replay onto %s", res.Class, res.Reason, o.Onto, moved)
		}
	}
	if fetches != 1 {
		t.Errorf("%d fetches, want 1 (the clone keeps what it fetched)", fetches)
	}
	if _, res, err := c.Coverage(context.Background(), "..", "widgets", replay.Input{AuditedHead: head, Shipped: shipped}); err != nil || res.Class != coverage.Unverifiable {
		t.Errorf("a repository named .. = %s, %v; want unverifiable", res.Class, err)
	}
}
