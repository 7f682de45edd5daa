package checks

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/golden"
)

func TestVerifyRun(t *testing.T) {
	lie := "false green: P0-T2 is DONE, but its Verify command exited 1 on re-run.\npasted (last line): ok\nre-run (last line): FAIL"
	tests := []struct {
		file    string
		folders []VerifyFolder
		want    Conclusion
	}{
		{"verify-reproduced.golden", []VerifyFolder{{Dir: "docs/run", Log: "docs/run/compliance-log.md",
			Tasks: []VerifyTask{{ID: "P0-T1", LogLine: 3, Took: 1200 * time.Millisecond}}}}, ConclusionSuccess},
		{"verify-false-green.golden", []VerifyFolder{{Dir: "docs/run", Log: "docs/run/compliance-log.md",
			Tasks:   []VerifyTask{{ID: "P0-T1", LogLine: 3, Took: time.Second}, {ID: "P0-T2", LogLine: 11, ExitCode: 1, Took: 2 * time.Second, Problem: lie}},
			Skipped: []VerifyTask{{ID: "P0-G1", LogLine: 20, Problem: "its **Verify:** block in the guide is empty or missing"}}},
			{Dir: "docs/broken", Err: "docs/broken: no compliance-log.md"}}, ConclusionFailure},
		{"verify-changed.golden", []VerifyFolder{{Dir: "docs/run", Log: "docs/run/compliance-log.md",
			Tasks:   []VerifyTask{{ID: "P0-T1", LogLine: 3, Took: time.Second}},
			Changed: []VerifyTask{{ID: "P0-T2", LogLine: 11, Problem: "P0-T2: the Verify command changed on this pull request; not re-run from the head's text"}}}}, ConclusionFailure},
		{"verify-none.golden", []VerifyFolder{{Dir: "docs/run", Log: "docs/run/compliance-log.md"}}, ConclusionNeutral},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			run := VerifyRun(sha, tt.folders)
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
