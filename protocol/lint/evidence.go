package lint

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

// deferralOnlyRE: nothing but non-alphanumerics around at most one deferral
// term ("-", "…", "n/a", "TBD", "None yet").
var deferralOnlyRE = rundoc.Lazy(`(?i)^[^\p{L}\p{N}]*(?:` + deferTerms + `)?[^\p{L}\p{N}]*$`)

// maxDeferralAlnum bounds the letters and digits of a deferral term ("to be
// determined" has 14); text with more cannot be deferral-only.
const maxDeferralAlnum = 16

// deferralOnly reports whether s is nothing but non-alphanumerics around at
// most one deferral term. Real output has more letters and digits than any
// deferral term, which settles it without the pattern.
func deferralOnly(s string) bool {
	n := 0
	for _, r := range s {
		if r < utf8.RuneSelf && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			continue
		}
		if r >= utf8.RuneSelf && !unicode.IsLetter(r) && !unicode.IsNumber(r) {
			continue
		}
		if n++; n > maxDeferralAlnum {
			return false
		}
	}
	return deferralOnlyRE().MatchString(s)
}

// doneWithoutEvidence is L6: every DONE heading needs a fenced block of real
// output under **Verify output:**.
func (c *checker) doneWithoutEvidence() {
	for _, h := range c.log.Headings {
		if h.State != rundoc.Done || h.Evidence.Line != 0 && hasEvidence(c.log.EvidenceFences(h)) {
			continue
		}
		c.add(Problem{Rule: "L6", Tag: "[done without evidence]", ID: h.ID, File: c.log.File, Line: int(h.Line),
			Message: fmt.Sprintf("%s is marked DONE without pasted Verify output in a fenced block (recorded as FAILED)", h.ID)})
	}
}

// hasEvidence reports whether a fenced block of a Verify output field holds
// real output.
func hasEvidence(fences []rundoc.Fence) bool {
	for _, f := range fences {
		s := rundoc.TrimSpace(rundoc.StripPlaceholders(f.Content))
		if s != "" && !deferralOnly(s) {
			return true
		}
	}
	return false
}
