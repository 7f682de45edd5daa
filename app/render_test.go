package app

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/workunit"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", name, diff)
	}
}

func renderRun(r checks.Run) string {
	var b strings.Builder
	b.WriteString("name: " + r.Name + "\nhead: " + r.HeadSHA + "\nconclusion: " + string(r.Conclusion) + "\ntitle: " + r.Title + "\n--- summary\n" + r.Summary)
	for _, a := range r.Annotations {
		b.WriteString("--- annotation\n" + a.Path + ":" + strconv.Itoa(a.StartLine) + " " + string(a.Level) + " " + a.Message + "\n")
	}
	return b.String()
}

func TestRenderWorkUnit(t *testing.T) {
	ok := workunit.Verdict{OK: true, Unit: 12, Contract: workunit.Contract{Goal: "Users export reports", Acceptance: []string{"CSV works", "Big files stream"}, Risk: workunit.RiskMedium, Class: workunit.ClassProduct}}
	golden(t, "workunit-success.golden", renderRun(workUnitRun(sha(1), ok, "Export reports")))
	bad := workunit.Verdict{Unit: 12, Reasons: []string{"#12 is closed; an attempt needs an open work unit", "dependency #3 is still open; finish it before this unit"}}
	golden(t, "workunit-failure.golden", renderRun(workUnitRun(sha(1), bad, "")))
}

func TestRenderConfig(t *testing.T) {
	errs := config.Errors{{File: configPath, Line: 3, Column: 1, Field: "no_such_key", Message: "unknown field"}}
	golden(t, "config-errors.golden", renderRun(configRun(sha(2), "main", errs, nil)))
	golden(t, "config-unreadable.golden", renderRun(configRun(sha(2), "main", nil, errors.New("the file is too large for GitHub to return inline"))))
	golden(t, "config-valid.golden", renderRun(configRun(sha(2), "main", nil, nil)))
	for _, r := range []checks.Run{configRun(sha(2), "main", errs, nil), workUnitRun(sha(1), workunit.Verdict{Reasons: []string{"x"}}, "")} {
		if err := checks.Validate(r); err != nil {
			t.Errorf("%s: %v", r.Name, err)
		}
	}
}
