package lint

import (
	"fmt"
	"slices"
	"sort"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

// phaseOrder is L7: work reported (DONE or judged) in a phase while an ID of
// an earlier phase is not effectively APPROVED. Verdicts are read exactly as
// status reads them.
func (c *checker) phaseOrder() {
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
		if it.Report != "" || it.HeaderVerdict != "" { // the ID has a heading
			add(it.ID)
		}
	}
	order := make([]string, 0, len(phases))
	for p := range phases {
		order = append(order, p)
	}
	sort.Slice(order, func(i, j int) bool { return rundoc.LessNumber(order[i], order[j]) })

	// The first phase with an open ID names its smallest open ID; every
	// later phase is checked against it. IDs are looked up in the order
	// they were gathered (the log's order, mostly) and sorted only for a
	// phase that has problems to report.
	earlierOpen := ""
	for _, p := range order {
		ids := phases[p]
		if earlierOpen != "" {
			c.outOfOrder(ids, earlierOpen)
			continue
		}
		for _, id := range ids {
			if it, _ := c.item(id); !it.Closed() && (earlierOpen == "" || id < earlierOpen) {
				earlierOpen = id
			}
		}
	}
}

// reported reports whether the log has an item DONE or judged.
func reported(it rundoc.Item, ok bool) bool {
	return ok && (it.Report == rundoc.Done || it.Verdict() != "")
}

// outOfOrder reports the IDs of one phase that were reported while open, an
// earlier phase's ID, is not APPROVED, in ID order.
func (c *checker) outOfOrder(ids []string, open string) {
	if !slices.ContainsFunc(ids, func(id string) bool { return reported(c.item(id)) }) {
		return
	}
	slices.Sort(ids)
	ids = slices.Compact(ids) // an ID in both the guide and the log
	for _, id := range ids {
		if it, ok := c.item(id); reported(it, ok) {
			c.add(Problem{Rule: "L7", Tag: "[phase order]", ID: id, File: c.log.File, Line: it.Line,
				Message: fmt.Sprintf("%s was reported while %s of an earlier phase is not APPROVED", id, open)})
		}
	}
}
