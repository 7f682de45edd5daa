package lint

import (
	"fmt"
	"slices"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

// phaseOrderSorted is L7 as it was written before IDs were looked up
// unsorted: every phase sorted, its smallest open ID found by walking it in
// order. It is the oracle of FuzzPhaseOrder.
func phaseOrderSorted(c *checker) []Problem {
	phases := map[string][]string{}
	add := func(id string) {
		if p, ok := rundoc.PhaseOf(id); ok {
			phases[p] = append(phases[p], id)
		}
	}
	for _, s := range c.guide.Sections {
		if s.IsTask() {
			add(s.ID)
		}
	}
	for _, it := range c.items {
		if it.Report != "" || it.HeaderVerdict != "" {
			add(it.ID)
		}
	}
	order := make([]string, 0, len(phases))
	for p := range phases {
		order = append(order, p)
	}
	sort.Slice(order, func(i, j int) bool { return rundoc.LessNumber(order[i], order[j]) })
	var out []Problem
	earlierOpen := ""
	for _, p := range order {
		ids := slices.Compact(slices.Sorted(slices.Values(phases[p])))
		for _, id := range ids {
			if it, ok := lookupItem(c.log, id); earlierOpen != "" && ok && (it.Report == rundoc.Done || it.Verdict() != "") {
				out = append(out, Problem{Rule: "L7", Tag: "[phase order]", ID: id, File: c.log.File, Line: it.Line,
					Message: fmt.Sprintf("%s was reported while %s of an earlier phase is not APPROVED", id, earlierOpen)})
			}
		}
		for _, id := range ids {
			if it, _ := lookupItem(c.log, id); earlierOpen == "" && !it.Closed() {
				earlierOpen = id
			}
		}
	}
	return out
}

// checkPhaseOrder compares phaseOrder with its oracle on one run.
func checkPhaseOrder(t *testing.T, files rundoc.Files) {
	t.Helper()
	run := rundoc.Parse(files)
	c := newChecker(run)
	c.phaseOrder()
	got := slices.Concat(c.found...)
	if diff := cmp.Diff(phaseOrderSorted(newChecker(run)), got, cmp.Comparer(func(a, b Problem) bool {
		return fmt.Sprint(a) == fmt.Sprint(b)
	})); diff != "" {
		t.Errorf("phaseOrder differs from the sorted form (-want +got):\n%s", diff)
	}
}

var phaseSeeds = [][2]string{
	{"### P1-T2 — b\n### P1-T10 — c\n### P0-T1 — a\n", "### P1-T10 — DONE\n### P1-T2 — APPROVED\n### P2-T1 — DONE\n"},
	{"### P0-T2 — a\n### P0-T1 — a\n", "| ID | Verdict |\n|---|---|\n| P0-T1 | APPROVED |\n### P0-T2 — DONE\n### P1-T1 — DONE\n### P1-T1 — DONE\n"},
	{"", "### P3-T1 — REJECTED\n### P1-T9 — BLOCKED\n### P2-T1 — DONE\n### P2-T0 — APPROVED\n"},
}

func TestPhaseOrderAgreesWithSorted(t *testing.T) {
	for _, s := range phaseSeeds {
		checkPhaseOrder(t, rundoc.Files{Docs: map[string]string{rundoc.GuideFile: s[0], rundoc.LogFile: s[1]}})
	}
	for seed := range uint64(5) {
		checkPhaseOrder(t, messyRun(300, seed))
	}
}

func FuzzPhaseOrder(f *testing.F) {
	for _, s := range phaseSeeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, guide, log string) {
		checkPhaseOrder(t, rundoc.Files{Docs: map[string]string{rundoc.GuideFile: guide, rundoc.LogFile: log}})
	})
}

// lookupItem returns the Item for id, and false when the log never names
// it.
func lookupItem(l *rundoc.Log, id string) (rundoc.Item, bool) {
	if k, ok := l.IndexNear(id, 0); ok {
		return l.Items()[k], true
	}
	return rundoc.Item{ID: id}, false
}
