package checks

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/command"
)

// TestOverridableChecksAreTheAppsPullRequestChecks: the checks "override"
// may name (protocol/command spells them, as it cannot import this package)
// are the App's checks on a pull request's head, as named here.
func TestOverridableChecksAreTheAppsPullRequestChecks(t *testing.T) {
	want := []string{NameWorkUnit, NameGates, NameAudit, NameMerge}
	if diff := cmp.Diff(want, command.OverridableChecks()); diff != "" {
		t.Errorf("overridable checks (-checks +command):\n%s", diff)
	}
}
