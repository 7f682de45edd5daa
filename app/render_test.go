package app

import (
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/checks"
	goldenfile "github.com/aepgate/aepgate/internal/golden"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// golden compares got with testdata/name (go test -update rewrites it).
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.CheckString(t, filepath.Join("testdata", name), got)
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
