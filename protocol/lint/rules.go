package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

// missingReports is L1: a **Report:** ID with no log heading, per occurrence.
func (c *checker) missingReports() {
	for _, ref := range c.guide.Reports {
		if it, ok := c.item(ref.ID); !ok || it.Report == "" && it.HeaderVerdict == "" {
			c.add(Problem{Rule: "L1", Tag: "[missing report]", ID: ref.ID, File: c.guide.File, Line: ref.Line,
				Message: fmt.Sprintf("%s has a **Report:** line in %s but no entry in %s", ref.ID, c.guide.File, c.log.File)})
		}
	}
}

// emptyGuide is L2: no heading whose ID contains a digit.
func (c *checker) emptyGuide() {
	for _, s := range c.guide.Sections {
		if s.IsTask() {
			return
		}
	}
	c.add(Problem{Rule: "L2", Tag: "[empty guide]", File: c.guide.File, Line: 1,
		Message: c.guide.File + " defines no tasks or gates (### <ID> — <title>)."})
}

// missingReportLines is L3: a task or gate section without a Report line.
func (c *checker) missingReportLines() {
	for _, s := range c.guide.Sections {
		if s.IsTask() && s.Reports.Len() == 0 {
			c.add(Problem{Rule: "L3", Tag: "[missing report line]", ID: s.ID, File: c.guide.File, Line: s.Line,
				Message: fmt.Sprintf("%s has no **Report:** line naming a task ID", s.ID)})
		}
	}
}

// orphanReports is L4: a log heading ID the guide neither reports nor heads.
// Guide IDs are marked on the log's own items, so no second index is built.
func (c *checker) orphanReports() {
	known := make([]bool, len(c.items)) // by item: the guide names it
	near := 0
	for _, ref := range c.guide.Reports {
		if k, ok := c.log.IndexNear(ref.ID, near); ok {
			known[k], near = true, k
		}
	}
	near = 0
	for _, s := range c.guide.Sections {
		if k, ok := c.log.IndexNear(s.ID, near); ok {
			known[k], near = true, k
		}
	}
	type orphan struct {
		id   string
		line int
	}
	var orphans []orphan
	near = 0
	for _, h := range c.log.Headings {
		k, _ := c.log.IndexNear(h.ID, near)
		if near = k; !known[k] {
			known[k] = true // report each ID once, at its first heading
			orphans = append(orphans, orphan{h.ID, int(h.Line)})
		}
	}
	slices.SortFunc(orphans, func(a, b orphan) int { return strings.Compare(a.id, b.id) })
	for _, o := range orphans {
		c.add(Problem{Rule: "L4", Tag: "[orphan report]", ID: o.id, File: c.log.File, Line: o.line,
			Message: fmt.Sprintf("%s has an entry in %s but no task or gate in %s", o.id, c.log.File, c.guide.File)})
	}
}

// gatesWithoutControl is L5. A scaffolded gate (placeholder claim) is not
// flagged until its last log heading is DONE.
func (c *checker) gatesWithoutControl() {
	var last map[string]string // built when a scaffolded gate needs it
	var lw lowerer             // StatesNegativeControl without a copy of each body
	for _, s := range c.guide.Sections {
		if !s.IsGate() || statesLowered(lw.lower(s.Body), true) {
			continue
		}
		if last == nil && placeholderClaim(s.Title) {
			last = make(map[string]string, len(c.items))
			for _, h := range c.log.Headings {
				last[h.ID] = h.State
			}
		}
		if placeholderClaim(s.Title) && last[s.ID] != rundoc.Done {
			continue
		}
		c.add(Problem{Rule: "L5", Tag: "[gate w/o negative control]", ID: s.ID, File: c.guide.File, Line: s.Line,
			Message: fmt.Sprintf("gate %s does not state a negative control (what is broken, and the failure that shows it)", s.ID)})
	}
}

// placeholderClaim reports whether the title after its first colon (or the
// whole title) is exactly one placeholder.
func placeholderClaim(title string) bool {
	for i := 0; i < len(title); i++ {
		if title[i] == ':' {
			return rundoc.IsPlaceholder(title[i+1:])
		}
	}
	return rundoc.IsPlaceholder(title)
}
