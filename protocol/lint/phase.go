package lint

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

// phaseOrder is L7: work reported (DONE or judged) in a phase while an ID of
// an earlier phase is not effectively APPROVED. Verdicts are read exactly as
// status reads them.
func (c *checker) phaseOrder() {
	g := c.phaseGroups()
	order := make([]int, len(g.phases))
	for k := range order {
		order[k] = k
	}
	sort.Slice(order, func(i, j int) bool { return rundoc.LessNumber(g.phases[order[i]], g.phases[order[j]]) })

	// The first phase with an open ID names its smallest open ID; every
	// later phase is checked against it. IDs are looked up in the order
	// they were gathered (the log's order, mostly) and sorted only for a
	// phase that has problems to report.
	earlierOpen := ""
	for _, k := range order {
		ids := g.ids[k]
		if earlierOpen != "" {
			c.outOfOrder(ids, earlierOpen)
			continue
		}
		for _, at := range ids {
			id := c.idAt(at)
			if it, _ := c.item(id); !it.Closed() && (earlierOpen == "" || id < earlierOpen) {
				earlierOpen = id
			}
		}
	}
}

// phaseGroups are IDs grouped by phase: phases[k]'s IDs are ids[k], in the
// order they were met, as positions for idAt (int32: fewer than the run's
// documents have bytes, each under 1 GiB).
type phaseGroups struct {
	phases []string
	ids    [][]int32
}

// idAt returns the ID at position k of the guide's sections followed by the
// log's items.
func (c *checker) idAt(k int32) string {
	if n := int32(len(c.guide.Sections)); k >= n {
		return c.items[k-n].ID
	}
	return c.guide.Sections[k].ID
}

// phaseGroups groups the guide's task IDs and the log's headed IDs by
// phase. A first pass counts each phase's IDs, so that one array holds
// every group, each cut to its size.
func (c *checker) phaseGroups() phaseGroups {
	var g phaseGroups
	index := map[string]int{} // phase → position in g.phases
	var counts []int
	lastPhase, last := "", -1
	c.eachPhaseID(func(p string, _ int32) {
		if last < 0 || p != lastPhase { // IDs mostly come phase by phase
			k, ok := index[p]
			if !ok {
				k = len(g.phases)
				index[p] = k
				g.phases, counts = append(g.phases, p), append(counts, 0)
			}
			lastPhase, last = p, k
		}
		counts[last]++
	})
	total := 0
	for _, n := range counts {
		total += n
	}
	all, off := make([]int32, total), 0
	g.ids = make([][]int32, len(counts))
	for k, n := range counts {
		g.ids[k] = all[off : off : off+n]
		off += n
	}
	lastPhase, last = "", -1
	c.eachPhaseID(func(p string, at int32) {
		if last < 0 || p != lastPhase {
			lastPhase, last = p, index[p]
		}
		g.ids[last] = append(g.ids[last], at)
	})
	return g
}

// eachPhaseID calls f with the phase and position (idAt) of every guide
// task and every log item with a heading, in that order, whose ID has a
// phase.
func (c *checker) eachPhaseID(f func(phase string, at int32)) {
	add := func(id string, at int) {
		if p, ok := rundoc.PhaseOf(id); ok {
			f(p, int32(at))
		}
	}
	for k, s := range c.guide.Sections {
		if s.IsTask() {
			add(s.ID, k)
		}
	}
	for k, it := range c.items {
		if it.Report != "" || it.HeaderVerdict != "" { // the ID has a heading
			add(it.ID, len(c.guide.Sections)+k)
		}
	}
}

// reported reports whether the log has an item DONE or judged.
func reported(it rundoc.Item, ok bool) bool {
	return ok && (it.Report == rundoc.Done || it.Verdict() != "")
}

// outOfOrder reports the IDs of one phase that were reported while open, an
// earlier phase's ID, is not APPROVED, in ID order.
func (c *checker) outOfOrder(at []int32, open string) {
	if !slices.ContainsFunc(at, func(k int32) bool { return reported(c.item(c.idAt(k))) }) {
		return
	}
	slices.SortFunc(at, func(a, b int32) int { return strings.Compare(c.idAt(a), c.idAt(b)) })
	// An ID in both the guide and the log is reported once.
	at = slices.CompactFunc(at, func(a, b int32) bool { return c.idAt(a) == c.idAt(b) })
	for _, k := range at {
		id := c.idAt(k)
		if it, ok := c.item(id); reported(it, ok) {
			c.add(Problem{Rule: "L7", Tag: "[phase order]", ID: id, File: c.log.File, Line: it.Line,
				Message: fmt.Sprintf("%s was reported while %s of an earlier phase is not APPROVED", id, open)})
		}
	}
}
