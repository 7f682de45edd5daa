package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/golden"
)

// TestLintSARIFGolden pins lint's SARIF for the problems run (golden file,
// -update rewrites it) and checks what GitHub code scanning requires of
// it: version 2.1.0 and $schema, a driver name, every result's ruleId
// among the driver's rules, a message text, and one location with a
// relative URI and a startLine of 1 or more.
func TestLintSARIFGolden(t *testing.T) {
	code, out, errOut := runCLI(t, "lint", problemsDir, "--format", "sarif")
	if code != exitFindings {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	golden.CheckString(t, filepath.Join("testdata", "rundocs", "lint-problems.sarif.golden"), strings.ReplaceAll(out, Version(""), "<version>"))
	checkCodeScanningSARIF(t, out)
}

// checkCodeScanningSARIF checks a SARIF log against the fields GitHub's
// "SARIF support for code scanning" lists as required.
func checkCodeScanningSARIF(t *testing.T, out string) {
	t.Helper()
	var log sarifLog
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if log.Version != "2.1.0" || log.Schema == "" || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name == "" {
		t.Fatalf("log header: version %q, schema %q, %d runs", log.Version, log.Schema, len(log.Runs))
	}
	rules := map[string]bool{}
	for _, r := range log.Runs[0].Tool.Driver.Rules {
		rules[r.ID] = true
	}
	if len(log.Runs[0].Results) == 0 {
		t.Fatal("no results")
	}
	for i, r := range log.Runs[0].Results {
		if !rules[r.RuleID] || r.Message.Text == "" || len(r.Locations) != 1 {
			t.Errorf("result %d: %+v", i, r)
			continue
		}
		loc := r.Locations[0].PhysicalLocation
		if u := loc.ArtifactLocation.URI; u == "" || strings.HasPrefix(u, "/") || strings.Contains(u, "\\") || loc.Region.StartLine < 1 {
			t.Errorf("result %d location: %+v", i, loc)
		}
	}
}

// TestReviewCheckSARIF: review check's problems are SARIF results at the
// review file.
func TestReviewCheckSARIF(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "review.md", "not an audit\n")
	code, out, errOut := runCLI(t, "review", "check", filepath.Join(dir, "review.md"), "--format", "sarif")
	if code != exitFindings {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	checkCodeScanningSARIF(t, strings.ReplaceAll(out, dir+"/", ""))
}
