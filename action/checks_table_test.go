package action

import "testing"

// TestChecksCoverEveryInputName: every name the checks input takes has
// its check run and its default in the table --help is made from.
func TestChecksCoverEveryInputName(t *testing.T) {
	got := Checks()
	if len(got) != len(knownChecks) || len(checkRuns) != len(knownChecks) {
		t.Fatalf("Checks() has %d entries, checkRuns %d, knownChecks %d", len(got), len(checkRuns), len(knownChecks))
	}
	for i, c := range got {
		if c.Input != knownChecks[i] || c.Run == "" || c.When == "" {
			t.Errorf("entry %d: %+v", i, c)
		}
	}
}
