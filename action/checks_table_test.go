package action

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/checks"
)

// TestCheckTableIsComplete: every entry of the table the Action runs its
// checks from has its check run, its default, when it applies and how it
// runs; every name the `checks` input takes has one entry, and every check
// run is written by one entry.
func TestCheckTableIsComplete(t *testing.T) {
	var inputs, runs []string
	for i, c := range checkTable {
		if c.run == "" || c.when == "" || c.applies == nil || c.make == nil {
			t.Errorf("entry %d (%q): run %q, when %q, applies set %t, make set %t", i, c.input, c.run, c.when, c.applies != nil, c.make != nil)
		}
		if c.input != "" {
			inputs = append(inputs, c.input)
		}
		runs = append(runs, c.run)
	}
	wantInputs := []string{CheckLint, CheckStatus, CheckNegcontrol, CheckVerdicts, CheckReport, CheckPlans, CheckRelease}
	if diff := cmp.Diff(wantInputs, inputs); diff != "" {
		t.Errorf("the checks input's names (-want +got):\n%s", diff)
	}
	wantRuns := []string{checks.NameLint, checks.NameStatus, checks.NameNegativeControls, checks.NameVerdicts, checks.NameVerify, checks.NameReport, checks.NamePlans, checks.NameRelease}
	if diff := cmp.Diff(wantRuns, runs); diff != "" {
		t.Errorf("the check runs, in the order they are made (-want +got):\n%s", diff)
	}
}

// TestChecksCoverEveryInputName: Checks, the table --help is made from,
// gives every name the checks input takes with its check run and default,
// in the table's order, and the input accepts exactly those names.
func TestChecksCoverEveryInputName(t *testing.T) {
	got := Checks()
	if names := checkNames(); len(got) != len(names) {
		t.Fatalf("Checks() has %d entries, the checks input %d names", len(got), len(names))
	}
	for i, c := range got {
		if c.Input != checkNames()[i] || c.Run == "" || c.When == "" {
			t.Errorf("entry %d: %+v", i, c)
		}
		if _, ok := namedCheck(c.Input); !ok {
			t.Errorf("the checks input does not accept %q", c.Input)
		}
	}
	if _, ok := namedCheck(""); ok {
		t.Error(`the checks input accepts "" (aep/verify is asked for by the verify input)`)
	}
	if slices.ContainsFunc(got, func(c CheckInfo) bool { return c.Run == checks.NameVerify }) {
		t.Error("Checks() lists aep/verify, which the checks input does not name")
	}
}
