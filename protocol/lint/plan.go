package lint

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

// planFields are the plan fields L10 requires once work is reported, in
// report order.
var planFields = []string{"Target outcome", "Problem", "Cost of doing nothing", "Options", "Riskiest assumption", "Non-goals"}

// planUnfilled is L10: opportunity, shaping or non-goal fields of the plan
// still empty while some log item is DONE or judged. A run without a plan,
// or a fresh one, is never flagged.
func (c *checker) planUnfilled() []Problem {
	if c.plan == nil || !c.workStarted() {
		return nil
	}
	var out []Problem
	for _, name := range planFields {
		ok, line := c.planFieldFilled(name)
		if ok {
			continue
		}
		out = append(out, Problem{Rule: "L10", Tag: "[plan unfilled]", ID: name, File: c.plan.File, Line: line,
			Message: fmt.Sprintf("%q is unfilled in %s although work has been reported", name, c.plan.File)})
	}
	return out
}

// planFieldFilled reports whether a plan field has content, and the line
// where it was found (1 when absent).
func (c *checker) planFieldFilled(name string) (bool, int) {
	switch name {
	case "Non-goals":
		s, ok := c.plan.Section("Non-goals")
		if !ok {
			return false, 1
		}
		return hasContent(s.Body), s.Line
	case "Options":
		if f, ok := c.plan.Field("Options"); ok && hasContent(f.Value) {
			return true, f.Line
		}
		s, ok := c.plan.Section("Shaping")
		if !ok {
			return false, 1
		}
		return shapingTableFilled(c.plan, s), s.Line
	}
	f, ok := c.plan.Field(name)
	if !ok {
		return false, 1
	}
	return hasContent(f.Value), f.Line
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

var deferredPhaseRE = regexp.MustCompile(`(?i)^(?:p|phase\s*)?([0-9]+)$`)

// deferredOpen is L11: a deferred-ledger row still open while the phase it
// was deferred to is being closed (a gate of that phase is DONE or judged).
func (c *checker) deferredOpen() []Problem {
	if c.plan == nil {
		return nil
	}
	tb, ok := c.plan.TableWith("id", "deferred to", "closed by")
	if !ok {
		return nil
	}
	idc, toc, byc := tb.Col("id"), tb.Col("deferred to"), tb.Col("closed by")
	closing := c.closingPhases()
	var out []Problem
	for k, row := range tb.Rows {
		if len(row) <= max(idc, toc, byc) || rundoc.IsRuleCell(row[idc]) {
			continue
		}
		m := deferredPhaseRE.FindStringSubmatch(row[toc])
		if m == nil || !openCell(row[byc]) || !closing[rundoc.NormNumber(m[1])] {
			continue
		}
		out = append(out, Problem{Rule: "L11", Tag: "[deferred open]", ID: row[idc], File: c.plan.File, Line: tb.RowLines[k],
			Message: fmt.Sprintf("deferred item %s is still open while phase P%s is being closed", row[idc], rundoc.NormNumber(m[1]))})
	}
	return out
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
