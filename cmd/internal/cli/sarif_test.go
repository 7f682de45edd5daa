package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/plans"
)

// sarifGolden is out with the build's version replaced by a fixed one
// (still starting with a digit, as the SARIF rules want).
func sarifGolden(out string) string {
	return strings.ReplaceAll(out, `"version": "`+sarifToolVersion(Version(""))+`"`, `"version": "0.0.0-golden"`)
}

// TestLintSARIFGolden pins lint's SARIF for the problems run (golden file,
// -update rewrites it) and checks what GitHub code scanning requires of it.
func TestLintSARIFGolden(t *testing.T) {
	code, out, errOut := runCLI(t, "lint", problemsDir, "--format", "sarif")
	if code != exitFindings {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	golden.CheckString(t, filepath.Join("testdata", "rundocs", "lint-problems.sarif.golden"), sarifGolden(out))
	log := checkCodeScanningSARIF(t, out)
	if got, want := log.Runs[0].AutomationDetails.ID, "aepgate/lint/cmd/internal/cli/testdata/rundocs/problems/"; got != want {
		t.Errorf("automationDetails.id %q, want %q", got, want)
	}
}

// TestReviewCheckSARIFGolden pins review check's SARIF for a review file
// committed in the audited repository: its problems at that file, by its
// path in the repository.
func TestReviewCheckSARIFGolden(t *testing.T) {
	repo := reviewRepo(t)
	body := auditReview("PASS", "", strings.Join([]string{quoteV2, quoteAbsent, quoteEnv, quoteLink}, ", "))
	writeTree(t, repo, map[string]string{"reviews/review.md": body})
	code, out, errOut := runCLI(t, "review", "check", filepath.Join(repo, "reviews/review.md"), "--repo-dir", repo, "--format", "sarif")
	if code != exitFindings {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	golden.CheckString(t, filepath.Join("testdata", "review", "check.sarif.golden"), sarifGolden(out))
	checkCodeScanningSARIF(t, out)
}

// TestReviewCheckSARIFRefusesStdin: a review read from standard input has
// no file code scanning could place a result in: exit 2, saying so.
func TestReviewCheckSARIFRefusesStdin(t *testing.T) {
	code, out, errOut := runReviewCheck(t, "not an audit\n", "-", "--format", "sarif")
	if code != exitUsage || out != "" || !strings.Contains(errOut, "--format sarif needs the review as a file") {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2 and the reason", code, out, errOut)
	}
}

// TestPlansVerifySARIFGolden pins plans verify's SARIF: each finding at its
// file by its path in the repository.
func TestPlansVerifySARIFGolden(t *testing.T) {
	r := newPlansRepo(t)
	r.commit("state", map[string]string{"plans/billing/state/phase-1.json": "{\n\"version\": 1,\n\"trust_me\": true}\n"})
	code, out, errOut := runCLI(t, "plans", "verify", filepath.Join(r.dir, "plans/billing"), "--format", "sarif")
	if code != exitFindings {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	golden.CheckString(t, filepath.Join("testdata", "plans", "verify.sarif.golden"), sarifGolden(out))
	checkCodeScanningSARIF(t, out)
}

// TestSARIFIsTheSameFromAnyWorkingDirectory: the SARIF of lint, review
// check and plans verify is byte for byte the same run from the
// repository root, from a folder inside it and from outside it (the
// folder then given as an absolute path).
func TestSARIFIsTheSameFromAnyWorkingDirectory(t *testing.T) {
	top, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	plansRepo := newPlansRepo(t)
	plansRepo.commit("state", map[string]string{"plans/billing/state/phase-1.json": "{\n\"version\": 1,\n\"trust_me\": true}\n"})
	review := reviewRepo(t)
	writeTree(t, review, map[string]string{"reviews/review.md": "not an audit\n"})
	tests := []struct {
		name string
		runs map[string][]string // working directory → arguments
	}{
		{"lint", map[string][]string{
			top:                        {"lint", "cmd/internal/cli/" + problemsDir},
			filepath.Join(top, "cmd"):  {"lint", "internal/cli/" + problemsDir},
			filepath.Join(top, "docs"): {"lint", "../cmd/internal/cli/" + problemsDir},
			outside:                    {"lint", filepath.Join(top, "cmd/internal/cli", problemsDir)},
			filepath.Join(top, "cmd/internal/cli", problemsDir): {"lint", "."},
		}},
		{"review check", map[string][]string{
			review:                           {"review", "check", "reviews/review.md", "--repo-dir", review},
			filepath.Join(review, "reviews"): {"review", "check", "review.md", "--repo-dir", review},
			outside:                          {"review", "check", filepath.Join(review, "reviews/review.md"), "--repo-dir", review},
		}},
		{"plans verify", map[string][]string{
			plansRepo.dir:                         {"plans", "verify", "plans/billing"},
			filepath.Join(plansRepo.dir, "plans"): {"plans", "verify", "billing"},
			outside:                               {"plans", "verify", filepath.Join(plansRepo.dir, "plans/billing")},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var first, firstDir string
			for dir, args := range tc.runs {
				t.Chdir(dir)
				_, out, errOut := runCLI(t, append(args, "--format", "sarif")...)
				if !strings.Contains(out, `"results"`) {
					t.Fatalf("from %s: no SARIF; stderr %s", dir, errOut)
				}
				if first == "" {
					first, firstDir = out, dir
					continue
				}
				if out != first {
					t.Errorf("from %s the SARIF differs from the one from %s:\n%s\n---\n%s", dir, firstDir, out, first)
				}
			}
		})
	}
}

// TestSARIFFingerprintsFollowTheLine: a line inserted above every finding
// moves the findings' lines but keeps their partialFingerprints, which
// hash the line's content, not its number.
func TestSARIFFingerprintsFollowTheLine(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "docs", "run")
	if err := os.CopyFS(run, os.DirFS(problemsDir)); err != nil {
		t.Fatal(err)
	}
	before := sarifPrints(t, run)
	for _, name := range []string{"execution-guide.md", "compliance-log.md"} {
		path := filepath.Join(run, name)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append([]byte("\n\n"), b...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	after := sarifPrints(t, run)
	if len(before) == 0 || len(before) != len(after) {
		t.Fatalf("%d results before, %d after", len(before), len(after))
	}
	moved := 0
	for fp, line := range before {
		got, ok := after[fp]
		if !ok {
			t.Errorf("fingerprint %s (line %d) is gone after the insert", fp, line)
		}
		if got != line {
			moved++
		}
	}
	if moved == 0 {
		t.Errorf("no finding moved: the insert did not test anything")
	}
}

// sarifPrints is lint's SARIF for run: each result's fingerprint and line.
func sarifPrints(t *testing.T, run string) map[string]int {
	t.Helper()
	_, out, _ := runCLI(t, "lint", run, "--format", "sarif")
	log := checkCodeScanningSARIF(t, out)
	prints := map[string]int{}
	for _, r := range log.Runs[0].Results {
		fp := r.Fingerprints[sarifFingerprint]
		if _, dup := prints[fp]; dup {
			t.Errorf("two results share the fingerprint %s", fp)
		}
		prints[fp] = r.Locations[0].PhysicalLocation.Region.StartLine
	}
	return prints
}

// checkCodeScanningSARIF checks a SARIF log against what GitHub's "SARIF
// support for code scanning" and the multitool's GitHub rules require:
// version 2.1.0 and $schema, a driver name and a version starting with a
// digit, every rule with a full description, help text and Markdown and a
// help URI, automationDetails.id, %SRCROOT% declared, and every result with
// a rule of the driver (ruleIndex pointing at it), a message text, one
// location relative to %SRCROOT% with a startLine of 1 or more, and a
// partial fingerprint.
func checkCodeScanningSARIF(t *testing.T, out string) sarifLog {
	t.Helper()
	var log sarifLog
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if log.Version != "2.1.0" || log.Schema == "" || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name == "" {
		t.Fatalf("log header: version %q, schema %q, %d runs", log.Version, log.Schema, len(log.Runs))
	}
	run := log.Runs[0]
	if v := run.Tool.Driver.Version; v == "" || v[0] < '0' || v[0] > '9' {
		t.Errorf("driver version %q does not start with a digit", v)
	}
	if id := run.AutomationDetails.ID; !strings.HasPrefix(id, "aepgate/") || !strings.HasSuffix(id, "/") {
		t.Errorf("automationDetails.id %q", id)
	}
	if _, ok := run.OriginalURIBaseIDs[sarifRoot]; !ok {
		t.Errorf("originalUriBaseIds lacks %s", sarifRoot)
	}
	for _, r := range run.Tool.Driver.Rules {
		if r.Name == "" || r.ShortDescription.Text == "" || r.FullDescription.Text == "" || r.Help.Text == "" || !strings.Contains(r.Help.Markdown, "](https://") || r.HelpURI == "" {
			t.Errorf("rule %s lacks a description or help: %+v", r.ID, r)
		}
	}
	if len(run.Results) == 0 {
		t.Fatal("no results")
	}
	for i, r := range run.Results {
		rules := run.Tool.Driver.Rules
		if r.RuleIndex >= len(rules) || rules[r.RuleIndex].ID != r.RuleID || r.Message.Text == "" || len(r.Locations) != 1 || r.Fingerprints[sarifFingerprint] == "" {
			t.Errorf("result %d: %+v", i, r)
			continue
		}
		loc := r.Locations[0].PhysicalLocation
		if u := loc.ArtifactLocation.URI; u == "" || strings.HasPrefix(u, "/") || strings.HasPrefix(u, "../") || strings.Contains(u, "\\") || loc.ArtifactLocation.URIBaseID != sarifRoot || loc.Region.StartLine < 1 {
			t.Errorf("result %d location: %+v", i, loc)
		}
	}
	return log
}

// TestSARIFRulesAreDocumented: every rule lint and plans verify can report
// has its SARIF documentation.
func TestSARIFRulesAreDocumented(t *testing.T) {
	var want []string
	for i := 1; i <= 11; i++ {
		want = append(want, fmt.Sprintf("L%d", i))
	}
	for _, id := range want {
		if _, ok := lintRuleDocs[id]; !ok {
			t.Errorf("lint rule %s has no SARIF documentation", id)
		}
	}
	names := []string{"rerun", "schema"}
	for _, r := range plans.Rules() {
		names = append(names, r.Name)
	}
	for _, n := range names {
		if _, ok := plansRuleDocs[n]; !ok {
			t.Errorf("plans rule %s has no SARIF documentation", n)
		}
	}
	if len(lintRuleDocs) != len(want) || len(plansRuleDocs) != len(names) {
		t.Errorf("%d lint and %d plans rule docs, want %d and %d: a rule that is gone", len(lintRuleDocs), len(plansRuleDocs), len(want), len(names))
	}
}

// TestSARIFRuleDocsMatchTheDocs: each rule's Markdown is its row in the
// docs table (lint: docs/run-documents.md, plans verify: docs/plans.md),
// and each help URI's anchor is a heading of its page.
func TestSARIFRuleDocsMatchTheDocs(t *testing.T) {
	for _, docs := range []map[string]ruleDoc{lintRuleDocs, plansRuleDocs} {
		for id, d := range docs {
			page, _, _ := strings.Cut(d.doc, "#")
			if !hasRow(repoFile(t, page), id, d.markdown) {
				t.Errorf("%s: %s has no table row for it ending %q", id, page, "| "+d.markdown+" |")
			}
		}
	}
	for _, docs := range []map[string]ruleDoc{lintRuleDocs, plansRuleDocs, reviewRuleDocs} {
		for id, d := range docs {
			page, anchor, _ := strings.Cut(d.doc, "#")
			if !slices.Contains(headingAnchors(repoFile(t, page)), anchor) {
				t.Errorf("%s: %s has no heading with the anchor #%s", id, page, anchor)
			}
		}
	}
}

// headingAnchors are the anchors GitHub gives the Markdown headings of
// page: lower case, punctuation other than - and _ dropped, spaces made -.
func headingAnchors(page string) []string {
	var out []string
	drop := regexp.MustCompile(`[^\p{L}\p{N} _-]`)
	for _, line := range strings.Split(page, "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(line, "#"))
		out = append(out, strings.ReplaceAll(drop.ReplaceAllString(strings.ToLower(h), ""), " ", "-"))
	}
	return out
}

// hasRow reports whether page has a table row whose first cell is id
// (bare or in backticks) and whose last is markdown.
func hasRow(page, id, markdown string) bool {
	for _, line := range strings.Split(page, "\n") {
		if (strings.HasPrefix(line, "| "+id+" |") || strings.HasPrefix(line, "| `"+id+"` |")) && strings.Contains(line, "| "+markdown+" |") {
			return true
		}
	}
	return false
}
