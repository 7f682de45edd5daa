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

// TestExampleSkillFolder: the skill-dialect example folder parses, its
// progress.json and state files are read as the skill's, its two briefs
// are read, and phase 1 is done by its review once the owner is named.
func TestExampleSkillFolder(t *testing.T) {
	root := "../../examples/plans-skill"
	p := Plan{Dir: "plans/add-rate-limiting", States: map[int]*State{}, Reviews: map[int]*Review{}}
	for _, rel := range []string{"progress.json", "state/phase-1.json", "state/phase-1.review.json", "state/phase-2.json", "HANDOFF.md",
		"phases/phase-1-limiter-core.md", "phases/phase-2-redis-backend.md"} {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Add("plans/add-rate-limiting/"+rel, b); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
	}
	p.SetOwner("olivia") // the skill's progress.json names no owner
	got := []string{p.Derived(1), p.Derived(2), p.Progress.Dialect, p.States[1].Dialect, p.States[2].Dialect}
	if diff := cmp.Diff([]string{StatusDone, StatusInProgress, DialectSkill, DialectSkill, DialectSkill}, got); diff != "" {
		t.Errorf("derived (-want +got):\n%s", diff)
	}
	if len(p.Briefs) != 2 || len(p.Briefs[2].Tasks) != 3 {
		t.Errorf("briefs = %+v, want phases 1 and 2, phase 2 with three tasks", p.Briefs)
	}
	if line, missing := handoffGaps(p.Handoff, 1); line == 0 || len(missing) > 0 {
		t.Errorf("HANDOFF.md phase 1: line %d, missing %v", line, missing)
	}
}
