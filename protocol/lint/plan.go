package lint

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

// planFields are the plan fields L10 requires once work is reported, in
// report order, each with the template section that holds it.
var planFields = []struct{ name, section string }{
	{"Target outcome", "Opportunity"}, {"Problem", "Opportunity"}, {"Cost of doing nothing", "Opportunity"},
	{"Options", "Shaping"}, {"Riskiest assumption", "Shaping"}, {"Non-goals", "Non-goals"},
}

// planUnfilled is L10: opportunity, shaping or non-goal fields of the plan
// still empty while some log item is DONE or judged. Only a field the plan
// has (its label, or the template section that holds it) can be unfilled, so
// a plan of another shape (aepkit 0.5's numbered sections) is never flagged.
// A run without a plan, or a fresh one, is never flagged.
func (c *checker) planUnfilled() {
	if c.plan == nil || !c.workStarted() {
		return
	}
	for _, f := range planFields {
		had, filled, line := c.planField(f.name, f.section)
		if !had || filled {
			continue
		}
		c.add(Problem{Rule: "L10", Tag: "[plan unfilled]", ID: f.name, File: c.plan.File, Line: line,
			Message: fmt.Sprintf("%q is unfilled in %s although work has been reported", f.name, c.plan.File)})
	}
}

// planField reports whether the plan has a field (its bold label, or the
// template section that holds it), whether it has content, and the line to
// report: the label's, else the section's.
func (c *checker) planField(name, section string) (had, filled bool, line int) {
	f, hasLabel := c.plan.Field(name)
	s, hasSection := c.plan.Section(section)
	switch {
	case name == "Non-goals":
		return hasSection, hasSection && hasContent(s.Body), s.Line
	case hasLabel && hasContent(f.Value):
		return true, true, f.Line
	case name == "Options" && hasSection:
		return true, shapingTableFilled(c.plan, s), s.Line
	case hasLabel:
		return true, false, f.Line
	}
	return hasSection, false, s.Line
}

// shapingTableFilled reports whether a table inside the Shaping section has
// a data row with content in a cell other than the first.
func shapingTableFilled(p *rundoc.Plan, s rundoc.PlanSection) bool {
	end := s.Line + strings.Count(s.Body, "\n") + 1
	for _, tb := range p.Tables {
		if tb.Line <= s.Line || tb.Line > end {
			continue
		}
		for _, row := range tb.Rows {
			for _, cell := range row[min(1, len(row)):] {
				if !rundoc.IsRuleCell(cell) && hasContent(cell) {
					return true
				}
			}
		}
	}
	return false
}

// hasContent reports whether s holds a letter or digit once placeholders are
// removed.
func hasContent(s string) bool {
	return strings.IndexFunc(rundoc.StripPlaceholders(s), func(r rune) bool {
		return unicode.IsLetter(r) || unicode.IsDigit(r)
	}) >= 0
}

var deferredPhaseRE = rundoc.LazyRaw(`(?i)^(?:p|phase\s*)?([0-9]+)$`)

// deferredOpen is L11: a deferred-ledger row still open while the phase it
// was deferred to is being closed (a gate of that phase is DONE or judged).
func (c *checker) deferredOpen() {
	if c.plan == nil {
		return
	}
	tb, ok := c.plan.TableWith("id", "deferred to", "closed by")
	if !ok {
		return
	}
	idc, toc, byc := tb.Col("id"), tb.Col("deferred to"), tb.Col("closed by")
	closing := c.closingPhases()
	for k, row := range tb.Rows {
		if len(row) <= max(idc, toc, byc) || rundoc.IsRuleCell(row[idc]) {
			continue
		}
		m := deferredPhaseRE().FindStringSubmatch(row[toc])
		if m == nil || !openCell(row[byc]) || !closing[rundoc.NormNumber(m[1])] {
			continue
		}
		c.add(Problem{Rule: "L11", Tag: "[deferred open]", ID: row[idc], File: c.plan.File, Line: tb.RowLines[k],
			Message: fmt.Sprintf("deferred item %s is still open while phase P%s is being closed", row[idc], rundoc.NormNumber(m[1]))})
	}
}

func openCell(s string) bool {
	s = rundoc.TrimSpace(s)
	return s == "" || s == "—" || s == "–" || s == "-"
}

// closingPhases returns the phases with a gate reported DONE or judged.
func (c *checker) closingPhases() map[string]bool {
	gates := map[string]bool{}
	for _, s := range c.guide.Sections {
		if s.IsGate() {
			gates[s.ID] = true
		}
	}
	out := map[string]bool{}
	for _, it := range c.items {
		if !gates[it.ID] && !rundoc.IsGateID(it.ID) {
			continue
		}
		if p, ok := rundoc.PhaseOf(it.ID); ok && (it.Report == rundoc.Done || it.Verdict() != "") {
			out[p] = true
		}
	}
	return out
}
