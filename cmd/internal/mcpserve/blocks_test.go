package mcpserve

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/checks"
)

// TestJudgeBlocks: only success, neutral and skipped let a pull request
// through (an unknown conclusion blocks), and each blocking check's next
// steps are read from its own result.
func TestJudgeBlocks(t *testing.T) {
	merge := "Pull request #2 may not merge yet.\n\n| Condition | Holds | Evidence or what is missing |\n| --- | --- | --- |\n" +
		"| worker report | ❌ | STATUS: done \\| blocked is missing |\n| audit | ✅ | PASS by @carol |\n| owner gates and HOLD | ❌ | gate g1 is open &lt;here&gt; |\n"
	gates := "The merge waits.\n\n### 1. HOLD on work unit #1: legal\n\n| Field | Value |\n| --- | --- |\n| Gate | `g1` |\n" +
		"| Who may answer | @olivia |\n| Opened | [by @olivia](https://example.com/1) |\n"
	tests := []struct {
		name        string
		runs        []checks.Run
		wantBlocked bool
		want        []NextStep
	}{
		{"all pass", []checks.Run{{Name: checks.NameAudit, Conclusion: checks.ConclusionSuccess}, {Name: checks.NameConfig, Conclusion: checks.ConclusionNeutral},
			{Name: checks.NameWorkUnit, Conclusion: checks.ConclusionSkipped}}, false, []NextStep{}},
		{"merge rows", []checks.Run{{Name: checks.NameMerge, Conclusion: checks.ConclusionFailure, Title: "Not ready", Summary: merge}}, true, []NextStep{
			{checks.NameMerge, "worker report: STATUS: done | blocked is missing"}, {checks.NameMerge, "owner gates and HOLD: gate g1 is open <here>"}}},
		{"gate sections", []checks.Run{{Name: checks.NameGates, Conclusion: checks.ConclusionActionRequired, Title: "Blocked by 1 HOLD", Summary: gates}}, true, []NextStep{
			{checks.NameGates, "HOLD on work unit #1: legal; who may answer: @olivia; opened: by @olivia"}}},
		{"another check: title and first paragraph", []checks.Run{{Name: checks.NameWorkUnit, Conclusion: checks.ConclusionFailure, Title: "1 problem with the work unit",
			Summary: "## Work unit\n\nThe body names no   work unit:\nadd `Work-unit: #N`.\n\n| a | b |\n"}}, true, []NextStep{
			{checks.NameWorkUnit, "1 problem with the work unit: The body names no work unit: add `Work-unit: #N`."}}},
		{"an unknown conclusion blocks", []checks.Run{{Name: checks.NameAudit, Conclusion: "stale", Title: "Stale"}}, true, []NextStep{{checks.NameAudit, "Stale"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := judgeBlocks("acme/widgets", 2, tt.runs)
			if got.Blocked != tt.wantBlocked {
				t.Errorf("blocked %v, want %v", got.Blocked, tt.wantBlocked)
			}
			if diff := cmp.Diff(tt.want, got.NextSteps); diff != "" {
				t.Errorf("next steps (-want +got):\n%s", diff)
			}
		})
	}
}
