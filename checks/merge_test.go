package checks

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/merge"
)

func TestRenderMerge(t *testing.T) {
	head := strings.Repeat("c", 40)
	in := merge.Input{
		Head:     head,
		WorkUnit: merge.Verdict{OK: true, Evidence: "work unit #3: contract valid, dependencies closed"},
		Audit:    merge.Verdict{OK: true, Evidence: "PASS by carol at cccccccccccc"},
		Required: []string{"ci"},
		Runs:     []merge.Run{{ID: 901, Workflow: "ci", Status: "completed", Conclusion: "success"}},
	}
	ready := Merge(head, 7, merge.Decide(in))
	in.Report = []string{"PRESERVATION names 1234567, not the head | fix it <now>"}
	in.Runs[0].Conclusion = "failure"
	in.Gates = []string{"HOLD on work unit #3: legal"}
	blocked := Merge(head, 7, merge.Decide(in))
	for _, tt := range []struct {
		file string
		run  Run
	}{{"merge-ready.golden", ready}, {"merge-blocked.golden", blocked}} {
		golden.CheckString(t, filepath.Join("testdata", tt.file), dumpApp(tt.run))
		if err := Validate(tt.run); err != nil {
			t.Errorf("%s: %v", tt.file, err)
		}
	}
}
