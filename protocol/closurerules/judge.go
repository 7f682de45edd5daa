package closurerules

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/gitsha"
)

// Judge applies rules to one unit's facts.
func Judge(f Facts, rules Rules) Verdict {
	v := Verdict{Number: f.Number, Closer: f.ClosedBy.Login, Command: fmt.Sprintf("%s close <reason>", f.prefix())}
	if f.Open {
		v.State = Open
		return v
	}
	if rules.HoldVoids && f.Hold != "" {
		v.State = WithoutEvidence
		v.Missing = fmt.Sprintf("it was closed while a HOLD applied (%s), and a closure under HOLD is never evidence; the owner resumes, then closes it again", f.Hold)
		v.Command = fmt.Sprintf("%s resume", f.prefix())
		return v
	}
	if rules.CompletedOnly && f.StateReason != ReasonCompleted {
		return notCompleted(f, rules, v)
	}
	if a, owed := f.RetroOwed(); owed && rules.RetroAudit {
		v.State = RetroOwed
		v.Missing = fmt.Sprintf("#%d owes a retro-audit (an independent audit PASS at the merged commit, or an owner's `%s waive <reason>` on #%d): merged as %s under an override of %s",
			a.PR, f.prefix(), a.PR, gitsha.Short(a.MergeSHA), strings.Join(a.Overridden, "; "))
		v.Command = fmt.Sprintf("%s waive <reason>", f.prefix())
		return v
	}
	for _, r := range rules.Evidence {
		if e := r.Find(f, rules); e != "" {
			return final(f, rules, v, e)
		}
	}
	v.State = WithoutEvidence
	v.Missing = missing(f, rules)
	return v
}

// notCompleted judges a closure whose state_reason is not completed: by an
// owner it cancels the unit, by anyone else it is without evidence.
func notCompleted(f Facts, rules Rules, v Verdict) Verdict {
	if authority(rules.Authority, f.ClosedBy, f.Owners) == "" && (f.StateReason == ReasonNotPlanned || f.StateReason == ReasonDuplicate) {
		v.State = Cancelled
		v.Missing = "the owner closed it as " + f.StateReason
		return v
	}
	v.State = WithoutEvidence
	v.Missing = fmt.Sprintf("it was closed as %q, not as completed; only the owner's own not-planned closure cancels a unit", orNone(f.StateReason))
	return v
}

// missing says what would have counted.
func missing(f Facts, rules Rules) string {
	parts := []string{"no merged attempt carries an aepgate/certificate"}
	if f.Risk == "low" {
		parts = append(parts, "no merged attempt passed aepgate/merge and aepgate/readback at its merge commit")
	}
	who := authority(rules.Authority, f.ClosedBy, f.Owners)
	if who == "" {
		who = "the closer's act was not counted"
	}
	parts = append(parts, "the closer is not the owner ("+who+")")
	return strings.Join(parts, "; ")
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
