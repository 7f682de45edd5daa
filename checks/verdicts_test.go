package checks

import (
	"path/filepath"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/golden"
)

func TestVerdictsRun(t *testing.T) {
	tests := []struct {
		file    string
		folders []VerdictsFolder
		neutral string
		want    Conclusion
	}{
		{"verdicts-ok.golden", []VerdictsFolder{{Dir: "docs/run", Log: "docs/run/compliance-log.md", Verdicts: 3}}, "", ConclusionSuccess},
		{"verdicts-refused.golden", []VerdictsFolder{{Dir: "docs/run", Log: "docs/run/compliance-log.md", Verdicts: 2, Refused: []VerdictRefusal{
			{Rule: "not-executor", Line: 9, Message: "P0-T1 APPROVED was introduced by exec (commit c00000000000), who also reported P0-T1: an executor cannot give its own task a verdict"},
			{Rule: "known-author", Line: 11, Message: "P0-T2 APPROVED introduced by commit abc123400000, which carries no signature GitHub verified for an auditor; sign the commit with a key added to your GitHub account as a signing key (see docs/action.md, \"Signing verdicts\")"}}},
			{Dir: "docs/other", Err: "git blame docs/other/compliance-log.md: no such path"}}, "", ConclusionFailure},
		{"verdicts-neutral.golden", nil, "the base branch's config lists no auditors, so who may give a verdict cannot be told", ConclusionNeutral},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			run := VerdictsRun(sha, tt.folders, tt.neutral)
			if run.Conclusion != tt.want {
				t.Errorf("conclusion %s, want %s", run.Conclusion, tt.want)
			}
			if err := Validate(Fit(run)); err != nil {
				t.Errorf("rendered run is invalid: %v", err)
			}
			golden.CheckString(t, filepath.Join("testdata", tt.file), dumpApp(run))
		})
	}
}
