package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/golden"
)

func TestReviewCheck(t *testing.T) {
	repo := reviewRepo(t)
	dir := t.TempDir()
	file := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	highFinding := `[{"id": "F1", "severity": "high", "requirement": "errors are wrapped", "evidence": [` + quoteV2 + `], "remedy": "wrap it"}]`
	mediumFinding := `[{"id": "F3", "severity": "medium", "requirement": "errors are wrapped", "evidence": [` + quoteV2 + `], "remedy": "wrap it"}]`
	block := `{"schema_version": 1, "work_unit": "#42", "verdict": "PASS", "summary": "s", "verification": [{"check": "go test", "outcome": "pass", "evidence": [` + quoteV2 + `]}]}`
	yamlBlock := "schema_version: 1\nwork_unit: \"#42\"\nverdict: PASS\nsummary: s\nverification:\n  - check: go test\n    outcome: pass\n    evidence:\n      - path: export/export.go\n        quote: 'return fmt.Errorf(\"export: %w\", err)'\n"
	tests := []struct {
		name     string
		stdin    string
		args     []string
		wantExit int
		want     string // in stdout
		wantErr  string // in stderr
	}{
		{"a valid PASS", "", []string{file("pass.md", auditReview("PASS", "", quoteV2))}, 0, "valid: the App would accept", ""},
		{"the block alone (JSON)", "", []string{file("block.json", block)}, 0, "(block) at", ""},
		{"the block alone (YAML)", "", []string{file("block.yml", yamlBlock)}, 0, "export/export.go line 8", ""},
		{"standard input", auditReview("PASS", "", quoteV2), []string{"-"}, 0, "- (review body)", ""},
		{"a quote that does not occur", "", []string{file("absent.md", auditReview("PASS", "", quoteAbsent))}, 1,
			`$.verification[0].evidence[0].quote: does not occur verbatim in "export/export.go" at the audited commit`, ""},
		{"a .env path", "", []string{file("env.md", auditReview("PASS", "", quoteEnv))}, 1,
			`$.verification[0].evidence[0].path: ".env" is a private or credential path`, ""},
		{"65 files", "", []string{file("many.md", auditReview("PASS", "", manyQuotes(65)))}, 1,
			"$: the review cites 65 files; at most 64 are read for one review", ""},
		{"64 files are read", "", []string{file("64.md", auditReview("PASS", "", manyQuotes(64)))}, 1,
			`$.verification[0].evidence[63].path: "f63.go" does not exist`, ""},
		{"a symbolic link", "", []string{file("link.md", auditReview("PASS", "", quoteLink))}, 1,
			`$.verification[0].evidence[0].path: "link.go" is a symbolic link at the audited commit`, ""},
		{"a missing file", "", []string{file("missing.md", auditReview("PASS", "", quoteMissing))}, 1,
			`"export/none.go" does not exist at the audited commit`, ""},
		{"the working tree is never read", "", []string{file("tree.md", auditReview("PASS", "", quoteTree))}, 1,
			"$.verification[0].evidence[0].quote: does not occur verbatim", ""},
		{"an older commit's quote at HEAD", "", []string{file("old.md", auditReview("PASS", "", quoteV1))}, 1, "does not occur verbatim", ""},
		{"an older commit with --sha", "", []string{file("old2.md", auditReview("PASS", "", quoteV1)), "--sha", "HEAD~1"}, 0, "export/export.go lines 4-6", ""},
		{"a PASS carrying a new high finding", "", []string{file("high.md", auditReview("PASS", highFinding, quoteV2))}, 1,
			"$.verdict: a PASS carries 1 new finding F1 (high): a clean verdict has none; make the verdict FAIL or NEEDS_EVIDENCE, or leave them out once settled", ""},
		{"a PASS carrying a new medium finding", "", []string{file("medium.md", auditReview("PASS", mediumFinding, quoteV2))}, 1,
			"$.verdict: a PASS carries 1 new finding F3 (medium): a clean verdict has none", ""},
		{"a PASS with an open evidence request", "", []string{file("asks.md", strings.Replace(auditReview("PASS", "", quoteV2), `"verification"`, `"evidence_requests": ["the CI log"], "verification"`, 1))}, 1,
			`$.verdict: a PASS carries 1 open evidence request $.evidence_requests[0] ("the CI log"): a clean verdict has none`, ""},
		{"a valid FAIL", "", []string{file("fail.md", auditReview("FAIL", highFinding, quoteV2))}, 0, "verdict FAIL for work unit #42", ""},
		{"a schema problem", "", []string{file("schema.json", `{"schema_version": 2, "work_unit": "#42", "verdict": "PASS"}`)}, 1,
			"$.summary: is required", ""},
		{"no block in a body", "", []string{file("none.md", "Looks good.\n\n```go\nx\n```\n")}, 1, "$: the review has no aep-audit block", ""},
		{"not a git repository", "", []string{file("nr.md", auditReview("PASS", "", quoteV2)), "--repo-dir", dir}, 2, "", "not a git repository"},
		{"an unknown commit", "", []string{file("us.md", auditReview("PASS", "", quoteV2)), "--sha", "0123456789abcdef"}, 2, "", "no such commit"},
		{"an unreadable file", "", []string{filepath.Join(dir, "nope.md")}, 2, "", "no such file"},
		{"a bad format", "", []string{file("f.md", ""), "--format", "xml"}, 2, "", "--format must be text, json or sarif"},
		{"no file", "", nil, 2, "", "accepts 1 arg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			if !strings.Contains(strings.Join(args, " "), "--repo-dir") {
				args = append(args, "--repo-dir", repo)
			}
			code, out, errs := runReviewCheck(t, tt.stdin, args...)
			if code != tt.wantExit || !strings.Contains(out, tt.want) || !strings.Contains(errs, tt.wantErr) {
				t.Errorf("exit %d (want %d)\nstdout:\n%s\nstderr: %s\nwant stdout to hold %q, stderr %q", code, tt.wantExit, out, errs, tt.want, tt.wantErr)
			}
		})
	}
}

// TestReviewCheckOutput pins the text and JSON reports (golden files); the
// repository's commits have fixed SHAs.
func TestReviewCheckOutput(t *testing.T) {
	repo := reviewRepo(t)
	body := auditReview("PASS", "", strings.Join([]string{quoteV2, quoteAbsent, quoteEnv, quoteLink}, ", "))
	for _, format := range []string{"text", "json"} {
		t.Run(format, func(t *testing.T) {
			code, out, errs := runReviewCheck(t, body, "-", "--repo-dir", repo, "--format", format)
			if code != 1 || errs != "" {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			golden.CheckString(t, filepath.Join("testdata", "review", "check-"+format+".golden"), out)
		})
	}
}

func TestReviewHelp(t *testing.T) {
	code, out, _ := runCLI(t, "review", "check", "--help")
	for _, want := range []string{"aepgate review check review.md", "--sha", "--repo-dir", "never the working tree", "Exit codes: 0 valid; 1 problems found; 2"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("review check --help (exit %d) lacks %q:\n%s", code, want, out)
		}
	}
	if code, _, errs := runCLI(t, "review"); code != 2 || !strings.Contains(errs, "name a subcommand: check") {
		t.Errorf("review alone: exit %d, stderr %q", code, errs)
	}
}
