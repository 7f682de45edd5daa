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

	earlierOpen := ""
	for _, p := range order {
		ids := phases[p]
		slices.Sort(ids)
		ids = slices.Compact(ids) // an ID in both the guide and the log
		if earlierOpen != "" {
			c.outOfOrder(ids, earlierOpen)
		}
		for _, id := range ids {
			if it, _ := c.item(id); earlierOpen == "" && !it.Closed() {
				earlierOpen = id
			}
		}
	}
}

func (c *checker) outOfOrder(ids []string, open string) {
	for _, id := range ids {
		it, ok := c.item(id)
		if !ok || (it.Report != rundoc.Done && it.Verdict() == "") {
			continue
		}
		c.add(Problem{Rule: "L7", Tag: "[phase order]", ID: id, File: c.log.File, Line: it.Line,
			Message: fmt.Sprintf("%s was reported while %s of an earlier phase is not APPROVED", id, open)})
	}
}
