package checks

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/readbackrules"
	"github.com/aepgate/aepgate/protocol/refusal"
)

func TestRenderReadback(t *testing.T) {
	audited, merge, base := strings.Repeat("a", 40), strings.Repeat("b", 40), strings.Repeat("c", 40)
	in := readbackrules.Input{
		RequiredWorkflows: []string{"ci", "lint"}, DefaultBranch: "main",
		PRRuns: []readbackrules.Run{{ID: 11, Workflow: "ci", HeadSHA: audited, Status: "completed", Conclusion: "success"},
			{ID: 12, Workflow: "lint", HeadSHA: audited, Status: "completed", Conclusion: "success"}},
		Merge: readbackrules.Merge{AuditedSha: audited, MergeSha: merge, Parents: []string{base, audited}, Coverage: &readbackrules.Coverage{Class: "replay", Covered: true}},
		MainRuns: []readbackrules.Run{{ID: 21, Workflow: "ci", HeadSHA: merge, Branch: "main", Status: "completed", Conclusion: "success"},
			{ID: 22, Workflow: "lint", HeadSHA: merge, Branch: "main", Status: "completed", Conclusion: "success"}},
	}
	view := func(state ReadbackState, in readbackrules.Input, extra ...refusal.Refusal) Run {
		return Readback(ReadbackView{PR: 7, MergeSHA: merge, AuditedSHA: audited, Branch: "main", State: state,
			Awaited: []string{"lint"}, Result: readbackrules.Decide(in), Extra: extra,
			Notes: []string{"Certificate: `aepgate/certificate` on this commit."}})
	}
	verified := view(ReadbackVerified, in)
	waiting := in
	waiting.MainRuns = waiting.MainRuns[:1]
	failed := in
	failed.MainRuns = []readbackrules.Run{in.MainRuns[0], {ID: 11, Workflow: "lint", HeadSHA: merge, Branch: "main", Status: "completed", Conclusion: "failure"}}
	failed.Merge.Parents = []string{audited, base}
	timeout := refusal.Refusal{Token: "readback-timeout", Expected: "readback within 6h0m0s of the merge", Seen: "still waiting for lint"}
	for _, tt := range []struct {
		file string
		run  Run
	}{
		{"readback-verified.golden", verified},
		{"readback-waiting.golden", view(ReadbackWaiting, waiting)},
		{"readback-failed.golden", view(ReadbackFailed, failed, timeout)},
	} {
		golden.CheckString(t, filepath.Join("testdata", tt.file), dumpApp(tt.run))
		if err := Validate(tt.run); err != nil {
			t.Errorf("%s: %v", tt.file, err)
		}
	}
}

func TestReadbackTitleTokens(t *testing.T) {
	rs := []refusal.Refusal{{Token: "d"}, {Token: "a"}, {Token: "c"}, {Token: "b"}, {Token: "a"}}
	if got, want := titleTokens(rs), "a, b, c and 1 more"; got != want {
		t.Errorf("titleTokens = %q, want %q", got, want)
	}
	if got := titleTokens(nil); got != "no reason given" {
		t.Errorf("titleTokens(nil) = %q", got)
	}
}
