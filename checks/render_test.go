package checks

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/lint"
	"github.com/aepgate/aepgate/protocol/refusal"
	"github.com/aepgate/aepgate/protocol/releaserules"
	"github.com/aepgate/aepgate/protocol/report"
	"github.com/aepgate/aepgate/protocol/workunit"
)

const sha = "89abcdef0123456789abcdef0123456789abcdef"

// dump renders a run as the golden text: the fields GitHub shows, then
// each annotation on one line.
func dump(r Run) string {
	var b strings.Builder
	fmt.Fprintf(&b, "name: %s\nexternal_id: %s\nstatus: %s\nconclusion: %s\ntitle: %s\n", r.Name, r.ExternalID, r.EffectiveStatus(), r.Conclusion, r.Title)
	fmt.Fprintf(&b, "--- summary\n%s--- text\n%s--- annotations (%d)\n", r.Summary, r.Text, len(r.Annotations))
	for _, a := range r.Annotations {
		fmt.Fprintf(&b, "%s %s:%d-%d [%s] %q\n", a.Level, a.Path, a.StartLine, a.EndLine, a.Title, a.Message)
	}
	return b.String()
}

func TestRenderGolden(t *testing.T) {
	lintFolders := []LintFolder{
		{Dir: "docs/run-a", Result: lint.Result{Problems: []lint.Problem{
			{Rule: "L1", Tag: "[missing report]", ID: "P0-T2", File: "compliance-log.md", Line: 14, Message: "P0-T2 is in the guide but has no report"},
			{Rule: "L8", Tag: "[duplicate]", File: "compliance-log.md", Line: 40, Message: "a paragraph | with a pipe is repeated", Count: 3, Excerpt: "Ran the tests"},
			{Rule: "L9", Tag: "[annexes]", Message: "9 annexes, threshold 6"},
		}}},
		{Dir: "docs/run-b"},
		{Dir: "docs/run-c", Err: "compliance-log.md not found"},
	}
	progress := []Progress{{
		Dir: "docs/run-a",
		Phases: []PhaseProgress{
			{ID: "P0", Title: "Setup", Weight: 1, Approved: 2, Total: 2},
			{ID: "P1", Title: "Build", Weight: 2, Approved: 1, Total: 3},
		},
		Counts:     map[string]int{"APPROVED": 3, "AWAITING AUDIT": 1, "PENDING": 1},
		Open:       []OpenItem{{ID: "P1-T2", State: "AWAITING AUDIT"}, {ID: "P1-G1", State: "PENDING"}},
		MostRecent: "P1-T2",
	}}
	controls := []ControlOutcome{
		{Name: "auth-check", OK: true, Verdict: "OK: test failed without the protection and passed with it", Transcript: "$ go test ./auth\nFAIL\n```\n$ go test ./auth\nok\n", Seconds: 2.04},
		{Name: "rate-limit", Verdict: "FAIL: test passed without the protection", Seconds: 1, ConfigLine: 12},
		{Name: "broken", Err: "--test-cmd is required", ConfigLine: 20},
	}
	body := "STATUS: done\nWORK-UNIT: #12\nATTEMPT: 1\nBRANCH: b\nPR: none\nDONE:\n- x\nNOT DONE / OPEN: none\nFILES:\n- a.go\nVERIFY:\n- go test\nPRESERVATION: clean + pushed at " + strings.Repeat("0", 40) + "\n"
	rep := report.Parse(body)
	// scopeFacts: the pull request names unit #13 and changes b.go, not a.go.
	scopeFacts := report.Facts{HeadSHA: sha, Number: 34, Repo: "acme/widgets",
		Units: []workunit.Ref{{Number: 13}}, Files: []string{"b.go"}, FilesKnown: true}
	bothFiles := report.Facts{Files: []string{"a.go", "b.go"}, FilesKnown: true}
	tests := []struct {
		name string
		run  Run
	}{
		{"lint", LintRun(sha, lintFolders)},
		{"lint-clean", LintRun(sha, []LintFolder{{Dir: "docs/run-b"}})},
		{"lint-none", LintRun(sha, nil)},
		{"status", StatusRun(sha, progress)},
		{"status-none", StatusRun(sha, nil)},
		{"negcontrol", NegControlRun(sha, ".github/aepgate.yml", controls)},
		{"negcontrol-none", NegControlRun(sha, ".github/aepgate.yml", nil)},
		{"report-problems", ReportRun(sha, 34, rep, report.Check(rep, report.Facts{HeadSHA: sha, Number: 34}), nil)},
		{"report-scope", ReportRun(sha, 34, rep, report.Check(rep, scopeFacts), report.Warnings(rep, scopeFacts))},
		{"report-done-with-warnings", ReportRun(sha, 34, rep, nil, report.Warnings(rep, bothFiles))},
		{"release-closed", ReleaseRun(sha, releaserules.Result{Closed: true, Version: "1.2.3", Tag: "v1.2.3", Repository: "acme/widgets", TagSha: ptr(sha), RemoteMainSha: ptr(sha), Errors: []string{}})},
		{"release-open", ReleaseRun(sha, releaserules.Result{Version: "1.2.3", Tag: "v1.2.3", Repository: "acme/widgets", TagSha: ptr(sha),
			Errors:   []string{"github-release-asset-hash-mismatch:app.tar.gz", "remote-main-mismatch"},
			Refusals: []refusal.Refusal{{Token: "github-release-asset-hash-mismatch:app.tar.gz", Expected: "sha256 abc | from the manifest", Seen: "sha256 def"}, {Token: "remote-main-mismatch", Expected: "tag at main", Seen: "main moved"}},
			Notes:    []string{"GET releases/latest: 404"}})},
		{"report-not-required", ReportNotRequiredRun(sha, 34, "No worker report is required: its author dependabot[bot] is a bot account and it names no work unit.")},
		{"report-missing", ReportRun(sha, 34, report.Parse("hello"), report.Check(report.Parse("hello"), report.Facts{HeadSHA: sha}), nil)},
	}
	var runs []Run
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := Validate(Fit(tt.run)); err != nil {
				t.Errorf("rendered run is invalid: %v", err)
			}
			golden.CheckString(t, filepath.Join("testdata", tt.name+".golden"), dump(tt.run))
		})
		runs = append(runs, tt.run)
	}
	t.Run("job-summary", func(t *testing.T) {
		shown, overflow := SplitWorkflowAnnotations(runs[:1])
		golden.CheckString(t, filepath.Join("testdata", "job-summary.golden"), JobSummary([]Run{runs[0], runs[3]}, []string{"This token cannot write check runs."}, overflow))
		if len(shown) != 3 || len(overflow) != 0 {
			t.Errorf("shown %d, overflow %d; want 3, 0", len(shown), len(overflow))
		}
	})
}

func ptr(s string) *string { return &s }

func TestSplitWorkflowAnnotations(t *testing.T) {
	var r Run
	for i := range 25 {
		r.Annotations = append(r.Annotations, Annotation{Path: "a", StartLine: i + 1, Level: LevelFailure, Message: "m"})
	}
	r.Annotations = append(r.Annotations, Annotation{Path: "a", StartLine: 1, Level: LevelWarning, Message: "w"})
	shown, overflow := SplitWorkflowAnnotations([]Run{r})
	if len(shown) != 11 || len(overflow) != 15 {
		t.Errorf("shown %d, overflow %d; want 11 (10 failures + 1 warning), 15", len(shown), len(overflow))
	}
}

func TestLint120ProblemsGiveThreePages(t *testing.T) {
	var ps []lint.Problem
	for i := range 120 {
		ps = append(ps, lint.Problem{Rule: "L1", Tag: "[missing report]", File: "compliance-log.md", Line: i + 1, Message: "m"})
	}
	r := LintRun(sha, []LintFolder{{Dir: "docs/x", Result: lint.Result{Problems: ps}}})
	if got := len(AnnotationPages(r.Annotations)); got != 3 {
		t.Errorf("pages = %d, want 3", got)
	}
}

func TestCellEscaping(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a|b", `a\|b`},
		{"line\nnext", "line<br>next"},
		{"", "–"},
		{`back\slash`, `back\\slash`},
	}
	for _, tt := range tests {
		if got := cell(tt.in); got != tt.want {
			t.Errorf("cell(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := code("a`b"); got != "``a`b``" {
		t.Errorf("code = %q", got)
	}
}
