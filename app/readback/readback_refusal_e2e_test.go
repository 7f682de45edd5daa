package readback_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/readbackrules"
)

// reusingReader reports the pull request's own CI run as a run on the
// default branch at the merge SHA, as GitHub does when the merge SHA is
// the pull request's head (a fast-forward); ghfake's merges always make a
// new commit, so the test hands the observation in.
type reusingReader struct {
	readback.MergeReader
	id *atomic.Int64
}

func (r reusingReader) MainRuns(ctx context.Context, owner, repo, sha, branch string) ([]readbackrules.Run, error) {
	runs, err := r.MergeReader.MainRuns(ctx, owner, repo, sha, branch)
	return append(runs, readbackrules.Run{ID: r.id.Load(), Workflow: "ci", HeadSHA: sha, Branch: branch, Event: "push",
		Status: "completed", Conclusion: "success", Attempt: 1}), err
}

func TestReadbackRefusesReusedCIRun(t *testing.T) {
	id := &atomic.Int64{}
	w := appkit.NewReadbackWorld(t, appkit.ReadbackYAML, func(o *app.ReadbackSeams) {
		o.Reader = func(r readback.MergeReader) readback.MergeReader { return reusingReader{MergeReader: r, id: id} }
	})
	id.Store(w.CIID)
	merge := w.PR.Merge(ghfake.MergeCommit)
	w.WantRefused(t, merge, w.WaitReadback(t, merge, "failure"), "reused-ci-as-readback")
}

func TestReadbackRefusesHeadPushedAfterAudit(t *testing.T) {
	var audited atomic.Value
	w := appkit.NewReadbackWorld(t, appkit.ReadbackYAML, func(o *app.ReadbackSeams) {
		o.Audited = func(ctx context.Context, owner, repo string, m *gh.MergedPull) (readback.Audit, error) {
			a, err := appkit.PassAudit(ctx, owner, repo, m)
			a.SHA, _ = audited.Load().(string)
			return a, err
		}
	})
	audited.Store(w.PR.Head())
	head := w.PR.Commit("after the audit", map[string]string{"late.go": "package x\n"})
	w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: head, Branch: "work", Event: "pull_request"})
	merge := w.PR.Merge(ghfake.MergeCommit)
	w.MainCI(merge, "success")
	w.WantRefused(t, merge, w.WaitReadback(t, merge, "failure"), "head-not-proven-unchanged")
}

// TestReadbackRefusesSquashWithOtherTree: under readback.coverage strict
// a squash onto a main that moved under the review is refused (its tree is
// not the audited head's); the replay rule accepts the same merge
// (TestReadbackReplaysSquashOntoMovedMain).
func TestReadbackRefusesSquashWithOtherTree(t *testing.T) {
	w := appkit.NewReadbackWorld(t, strictYAML, nil)
	w.Repo.Commit("main", "meanwhile", map[string]string{"other.go": "package y\n"})
	merge := w.PR.Merge(ghfake.Squash)
	w.MainCI(merge, "success")
	run := w.WaitReadback(t, merge, "failure")
	w.WantRefused(t, merge, run, "head-not-proven-unchanged")
	if !strings.Contains(run.Summary, "merge tree equal to the audited head's tree") {
		t.Errorf("summary does not say the trees differ:\n%s", run.Summary)
	}
}

// TestReadbackRefusesFailedRun: a failed run on main fails readback; a
// re-run (same run ID) that succeeds within the timeout turns it green.
func TestReadbackRefusesFailedRun(t *testing.T) {
	w := appkit.NewReadbackWorld(t, appkit.ReadbackYAML, nil)
	merge := w.PR.Merge(ghfake.MergeCommit)
	run := w.MainCI(merge, "failure")
	w.WantRefused(t, merge, w.WaitReadback(t, merge, "failure"), "readback-failed:ci")
	run.Rerun("success")
	w.WaitReadback(t, merge, "success")
	appkit.WaitFor(t, 10*time.Second, "certificate after the re-run", func() bool { return w.Latest(merge, checks.NameCertificate) != nil })
}

// TestReadbackRunAtAnotherSHA: a green run on main at another commit does
// not count; readback keeps waiting and, past the timeout, fails.
func TestReadbackRunAtAnotherSHA(t *testing.T) {
	w := appkit.NewReadbackWorld(t, appkit.ReadbackYAML, nil)
	before := w.Repo.Head("main")
	merge := w.PR.Merge(ghfake.MergeCommit)
	w.MainCI(before, "success")
	time.Sleep(300 * time.Millisecond)
	if r := w.WaitReadback(t, merge, ""); !strings.Contains(r.Title, "Waiting for ci") {
		t.Errorf("a run at another SHA changed the readback: %s", r.Title)
	}
	w.Skew.Store(int64(7 * time.Hour))
	w.Sweep(t)
	run := w.WaitReadback(t, merge, "failure")
	w.WantRefused(t, merge, run, "readback-missing:ci")
	w.WantRefused(t, merge, run, "readback-timeout")
}

// TestReadbackTimeout: no run on main within readback.timeout fails the
// readback (found by the sweep, with no event); a green run after that
// does not pass it.
func TestReadbackTimeout(t *testing.T) {
	w := appkit.NewReadbackWorld(t, appkit.ReadbackYAML+"readback:\n  timeout: 2h\n", nil)
	merge := w.PR.Merge(ghfake.MergeCommit)
	w.WaitReadback(t, merge, "")
	w.Skew.Store(int64(3 * time.Hour))
	w.Sweep(t)
	run := w.WaitReadback(t, merge, "failure")
	w.WantRefused(t, merge, run, "readback-timeout")
	if !strings.Contains(run.Summary, "readback within 2h0m0s of the merge") {
		t.Errorf("summary does not name the configured timeout:\n%s", run.Summary)
	}
	w.MainCI(merge, "success")
	w.Sweep(t)
	time.Sleep(300 * time.Millisecond)
	if r := w.Latest(merge, checks.NameReadback); r.Conclusion != "failure" || w.Count(merge, checks.NameReadback) != 1 {
		t.Errorf("a late run changed a timed-out readback: %s (%d runs)", r.Conclusion, w.Count(merge, checks.NameReadback))
	}
}

// TestReadbackSweepFindsLostMerge: a merge whose events were all lost is
// read back by the sweep.
func TestReadbackSweepFindsLostMerge(t *testing.T) {
	w := appkit.NewReadbackWorld(t, appkit.ReadbackYAML, nil)
	w.Quiet(t)
	w.F.CollectWebhooks(appkit.Secret, w.GHApp)
	merge := w.PR.Merge(ghfake.MergeCommit)
	w.MainCI(merge, "success")
	w.Sweep(t)
	w.WaitReadback(t, merge, "success")
	appkit.WaitFor(t, 10*time.Second, "certificate", func() bool { return w.Latest(merge, checks.NameCertificate) != nil })
}
