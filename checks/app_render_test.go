package checks

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// dumpApp renders one of the App's runs as its golden text.
func dumpApp(r Run) string {
	var b strings.Builder
	b.WriteString("name: " + r.Name + "\nhead: " + r.HeadSHA + "\nconclusion: " + string(r.Conclusion) + "\ntitle: " + r.Title + "\n--- summary\n" + r.Summary)
	for _, a := range r.Annotations {
		b.WriteString("--- annotation\n" + a.Path + ":" + strconv.Itoa(a.StartLine) + " " + string(a.Level) + " " + a.Message + "\n")
	}
	return b.String()
}

func appSHA(n int) string { return fmt.Sprintf("%040x", n) }

func TestRenderWorkUnit(t *testing.T) {
	ok := workunit.Verdict{OK: true, Unit: 12, Contract: workunit.Contract{Goal: "Users export reports", Acceptance: []string{"CSV works", "Big files stream"}, Risk: workunit.RiskMedium, Class: workunit.ClassProduct}}
	tampered := ok
	tampered.Contract.Risk = workunit.RiskHigh
	tampered.Tamper = (&workunit.Kept{Ignored: []string{"risk lowered from high to low"}, EditedBy: "mallory"}).Tamper()
	bad := workunit.Verdict{Unit: 12, Reasons: []string{"#12 is closed; an attempt needs an open work unit", "dependency #3 is still open; finish it before this unit"}}
	tests := []struct {
		file string
		run  Run
	}{
		{"workunit-success.golden", WorkUnit(appSHA(1), ok, "Export reports", true)},
		{"workunit-failure.golden", WorkUnit(appSHA(1), bad, "", true)},
		{"workunit-tampered.golden", WorkUnit(appSHA(1), tampered, "Export reports", true)},
	}
	for _, tt := range tests {
		golden.CheckString(t, filepath.Join("testdata", tt.file), dumpApp(tt.run))
	}
	if got := WorkUnit(appSHA(1), ok, "Export reports", false).Summary; !strings.Contains(got, noNativeBlockers) {
		t.Errorf("a server without issue dependencies is not mentioned:\n%s", got)
	}
}

func TestRenderConfig(t *testing.T) {
	const path = ".github/aepgate.yml"
	errs := config.Errors{{File: path, Line: 3, Column: 1, Field: "no_such_key", Message: "unknown field"}}
	tests := []struct {
		file string
		run  Run
	}{
		{"config-errors.golden", Config(appSHA(2), path, "main", errs, nil)},
		{"config-unreadable.golden", Config(appSHA(2), path, "main", nil, errors.New("the file is too large for GitHub to return inline"))},
		{"config-valid.golden", Config(appSHA(2), path, "main", nil, nil)},
		{"config-base-errors.golden", Config(appSHA(2), path, "main", append(errs, config.Error{File: "acme/.github:aepgate.yml", Line: 2, Column: 1, Field: "owner", Message: "unknown key"}), nil)},
		{"config-no-auditors.golden", ConfigWarned(appSHA(2), path, "main", ConfigWarnings(&config.Config{}))},
		{"config-no-auditors-triage.golden", ConfigWarned(appSHA(2), path, "main", ConfigWarnings(&config.Config{AuditTriage: true}))},
	}
	for _, tt := range tests {
		golden.CheckString(t, filepath.Join("testdata", tt.file), dumpApp(tt.run))
		if err := Validate(tt.run); err != nil {
			t.Errorf("%s: %v", tt.file, err)
		}
	}
	if got := ConfigWarnings(&config.Config{Auditors: []string{"carol"}}); got != nil {
		t.Errorf("listed auditors warn: %v", got)
	}
	if err := Validate(WorkUnit(appSHA(1), workunit.Verdict{Reasons: []string{"x"}}, "", true)); err != nil {
		t.Errorf("work-unit failure: %v", err)
	}
}

// TestRenderAdvisory: under `mode: advisory` a failing run is shown
// neutral, saying what it would have concluded; a neutral one is left as
// it is.
func TestRenderAdvisory(t *testing.T) {
	bad := workunit.Verdict{Unit: 12, Reasons: []string{"dependency #3 is still open; finish it before this unit"}}
	run := Advisory(WorkUnit(appSHA(1), bad, "", true))
	golden.CheckString(t, filepath.Join("testdata", "advisory-workunit-failure.golden"), dumpApp(run))
	warned := ConfigWarned(appSHA(2), ".github/aepgate.yml", "main", ConfigWarnings(&config.Config{}))
	if got := Advisory(warned); got.Title != warned.Title || got.Summary != warned.Summary {
		t.Errorf("a neutral run was changed: %q", got.Title)
	}
}
