package lint

import (
	"fmt"
	"sort"
	"strings"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

// annexPhaseRE: an annex's phase from its file stem: P<n>… or phase<n>,
// phase-<n>, phase_<n>.
var annexPhaseRE = rundoc.LazyRaw(`(?i)^(?:p([0-9]+)|phase[-_]?([0-9]+))`)

// annexes is L9: more annexes in total than the threshold.
func (c *checker) annexes(r *Result, threshold int) {
	groups := map[string]int{}
	total := 0
	for _, name := range c.run.Annexes {
		if name == rundoc.KeepFile {
			continue
		}
		total++
		groups[annexGroup(name)]++
	}
	if total <= threshold {
		return
	}
	r.AnnexTotal, r.AnnexThreshold = total, threshold
	for name, n := range groups {
		r.AnnexGroups = append(r.AnnexGroups, AnnexGroup{Name: name, Count: n})
	}
	sort.Slice(r.AnnexGroups, func(i, j int) bool { return lessGroup(r.AnnexGroups[i].Name, r.AnnexGroups[j].Name) })
	c.add(Problem{Rule: "L9", Tag: "[annex count]", File: rundoc.AnnexDir, Line: 0,
		Message: fmt.Sprintf("%d annexes exceeds the threshold of %d", total, threshold)})
}

// annexGroup returns "Phase <n>" (n without leading zeros) or "General".
func annexGroup(name string) string {
	stem := name
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		stem = name[:i]
	}
	m := annexPhaseRE().FindStringSubmatch(stem)
	if m == nil {
		return "General"
	}
	return "Phase " + rundoc.NormNumber(m[1]+m[2])
}

// lessGroup sorts "General" first, then phases numerically.
func lessGroup(a, b string) bool {
	pa, oka := strings.CutPrefix(a, "Phase ")
	pb, okb := strings.CutPrefix(b, "Phase ")
	if oka != okb {
		return okb
	}
	if !oka {
		return a < b
	}
	return rundoc.LessNumber(pa, pb)
}
