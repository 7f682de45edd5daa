package lint

import (
	"fmt"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

// deferralOnlyRE: nothing but non-alphanumerics around at most one deferral
// term ("-", "…", "n/a", "TBD", "None yet").
var deferralOnlyRE = rundoc.Lazy(`(?i)^[^\p{L}\p{N}]*(?:` + deferTerms + `)?[^\p{L}\p{N}]*$`)

// doneWithoutEvidence is L6: every DONE heading needs a fenced block of real
// output under **Verify output:**.
func (c *checker) doneWithoutEvidence() []Problem {
	var out []Problem
	for _, h := range c.log.Headings {
		if h.State != rundoc.Done || hasEvidence(h.Evidence) {
			continue
		}
		out = append(out, Problem{Rule: "L6", Tag: "[done without evidence]", ID: h.ID, File: c.log.File, Line: h.Line,
			Message: fmt.Sprintf("%s is marked DONE without pasted Verify output in a fenced block (recorded as FAILED)", h.ID)})
	}
	return out
}

func hasEvidence(e rundoc.Evidence) bool {
	if e.Line == 0 {
		return false
	}
	for _, f := range e.Fences {
		s := rundoc.TrimSpace(rundoc.StripPlaceholders(f.Content))
		if s != "" && !deferralOnlyRE().MatchString(s) {
			return true
		}
	}
	return false
}
