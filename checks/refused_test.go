package checks

import (
	"path/filepath"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/golden"
)

func TestRefusedRunGolden(t *testing.T) {
	run := RefusedRun(NameLint, sha, Refusal{
		Title:  "not judged: the workspace is at 0123456789ab, not this commit",
		Reason: "The workspace's `HEAD` is `0123456789abcdef0123456789abcdef01234567`; this run is published on `" + sha + "`.",
		Fix:    "check out the pull request's head: `actions/checkout` with `ref: ${{ github.event.pull_request.head.sha }}`.",
	})
	if run.Conclusion != ConclusionFailure || len(run.Annotations) != 0 {
		t.Errorf("conclusion %s with %d annotations, want failure with none", run.Conclusion, len(run.Annotations))
	}
	golden.CheckString(t, filepath.Join("testdata", "refused.golden"), dump(run))
}
