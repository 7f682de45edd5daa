package checks

import (
	"path/filepath"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// TestRenderOverridden: an overridden failing run succeeds, titled with the
// owner and reason, and says what it would conclude and what is owed; a
// successful run is left as it is.
func TestRenderOverridden(t *testing.T) {
	o := Override{Owner: "olivia", Reason: "production is down; the fix was reviewed by phone with bob", URL: "https://github.com/acme/widgets/pull/7#issuecomment-9", PR: 7}
	bad := workunit.Verdict{Unit: 12, Reasons: []string{"dependency #3 is still open; finish it before this unit"}}
	run := Overridden(WorkUnit(appSHA(1), bad, "", true), o)
	golden.CheckString(t, filepath.Join("testdata", "override-workunit.golden"), dumpApp(run))
	if err := Validate(run); err != nil {
		t.Error(err)
	}
	ok := WorkUnit(appSHA(1), workunit.Verdict{OK: true, Unit: 12}, "Export", true)
	if got := Overridden(ok, o); got.Title != ok.Title || got.Summary != ok.Summary {
		t.Errorf("a successful run was changed: %q", got.Title)
	}
}
