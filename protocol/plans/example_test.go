package plans

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestExampleFolder: the worked example docs/plans.md shows parses, and
// aepgate derives phase 1 done from its review file.
func TestExampleFolder(t *testing.T) {
	root := "../../examples/plans-billing"
	p := Plan{Dir: "plans/billing", States: map[int]*State{}, Reviews: map[int]*Review{}}
	for _, rel := range []string{"progress.json", "state/phase-1.json", "state/phase-1.review.json", "state/phase-2.json"} {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Add("plans/billing/"+rel, b); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
	}
	got := []string{p.Derived(1), p.Derived(2), p.Derived(3)}
	if diff := cmp.Diff([]string{StatusDone, StatusInProgress, "not_started"}, got); diff != "" {
		t.Errorf("derived (-want +got):\n%s", diff)
	}
}
