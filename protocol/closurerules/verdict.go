package closurerules

import "fmt"

// State is what a unit's closure counts as.
type State string

// The states of a unit.
const (
	// Open: the issue is open; it is not done.
	Open State = "open"
	// Done: closed as completed with evidence.
	Done State = "done"
	// Cancelled: an owner closed it as not planned; dependents stay blocked.
	Cancelled State = "cancelled"
	// WithoutEvidence: closed, but nothing shows it done.
	WithoutEvidence State = "closed-without-evidence"
	// NeedsReview: closed with evidence (a certificate, a low-risk
	// readback) under closure.final: owner, but not by the owner; it waits
	// for the owner's closure and is not done (craft-rules §6.1).
	NeedsReview State = "needs-review"
	// RetroOwed: closed, but a merged attempt's head was merged under an
	// owner's override (docs/merge.md) and its retro-audit is not settled:
	// not done, and never certified, until an independent audit passes at
	// the merged commit or an owner waives it.
	RetroOwed State = "retro-audit-owed"
)

// Verdict is the rule's answer for one unit.
type Verdict struct {
	Number int    `json:"number"`
	State  State  `json:"state"`
	Closer string `json:"closer,omitempty"`
	// Evidence names what made it done (empty unless Done).
	Evidence string `json:"evidence,omitempty"`
	// Missing says what is missing (for WithoutEvidence and Cancelled).
	Missing string `json:"missing,omitempty"`
	// Command is the exact owner command that would count.
	Command string `json:"command,omitempty"`
}

// Counts reports whether the unit counts as done.
func (v Verdict) Counts() bool { return v.State == Done }

// Blocking is why a dependent of the unit stays blocked; "" when the unit
// is done.
func (v Verdict) Blocking() string {
	switch v.State {
	case Done:
		return ""
	case Open:
		return fmt.Sprintf("dependency #%d is still open; finish it before this unit", v.Number)
	case Cancelled:
		return fmt.Sprintf("dependency #%d was cancelled (closed as not planned by %s); drop the dependency or reopen it", v.Number, v.Closer)
	case RetroOwed:
		return fmt.Sprintf("dependency #%d owes a retro-audit: %s; then it counts as done", v.Number, v.Missing)
	case NeedsReview:
		return fmt.Sprintf("dependency #%d is needs-review: %s (closed by %s; closure.final: owner); an owner closes #%d or says `%s` on it to count it done", v.Number, v.Missing, orSomeone(v.Closer), v.Number, v.Command)
	}
	return fmt.Sprintf("dependency #%d was closed without evidence by %s: %s; an owner says `%s` on #%d to count it done", v.Number, orSomeone(v.Closer), v.Missing, v.Command, v.Number)
}

func orSomeone(s string) string {
	if s == "" {
		return "an unknown account"
	}
	return s
}
