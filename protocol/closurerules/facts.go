package closurerules

import (
	"slices"
	"time"
)

// GitHub's state_reason values of a closed issue.
const (
	ReasonCompleted  = "completed"
	ReasonNotPlanned = "not_planned"
	ReasonDuplicate  = "duplicate"
)

// Actor is an account as GitHub reports it: its login, its account type
// ("User", "Bot", …) and its permission on the repository right now (admin,
// maintain, write, triage, read, none; "" when it could not be read).
type Actor struct {
	Login, Type, Permission string
}

// Attempt is one pull request naming the unit, as far as it bears on
// closure: where it was merged and what the App wrote about it.
type Attempt struct {
	PR int
	// MergeSHA is the merge commit; empty when the attempt is not merged.
	MergeSHA string
	// CertificateSHA256 is the SHA-256 of a valid aepgate/certificate this
	// App wrote on MergeSHA; empty when there is none.
	CertificateSHA256 string
	// MergePassed: aepgate/merge succeeded on the merged head.
	// ReadbackPassed: aepgate/readback succeeded at MergeSHA.
	MergePassed, ReadbackPassed bool
	// Overridden are the aepgate checks an owner overrode at the merged
	// head (docs/merge.md); RetroAudit says what settled the retro-audit
	// the merge then owes ("" while it is owed).
	Overridden []string `json:",omitempty"`
	RetroAudit string   `json:",omitempty"`
}

// RetroOwed is the first merged attempt whose overridden merge owes a
// retro-audit, if any.
func (f Facts) RetroOwed() (Attempt, bool) {
	for _, a := range f.Attempts {
		if a.MergeSHA != "" && len(a.Overridden) > 0 && a.RetroAudit == "" {
			return a, true
		}
	}
	return Attempt{}, false
}

// Command is one `/aep close <reason>` comment on the unit's issue.
type Command struct {
	Actor
	CommentID int64
	Reason    string
	// Event is "issue_comment.created" for a newly created comment.
	Event            string
	Created, Updated time.Time
}

// EventCommentCreated is the only event a command counts from.
const EventCommentCreated = "issue_comment.created"

// Facts is everything the rule reads about one unit.
type Facts struct {
	Number int
	Open   bool
	// StateReason is GitHub's state_reason of the closure.
	StateReason string
	// ClosedBy is who closed the issue (the closed event's actor).
	ClosedBy Actor
	// Owners are the repository config's owners.
	Owners []string
	// Risk is the unit contract's risk tier (low, medium, high); empty when
	// the contract is unreadable.
	Risk     string
	Attempts []Attempt
	Commands []Command
	// Hold is the reason of a HOLD that applied to the unit when it was
	// closed; empty when none did.
	Hold string
	// Prefix starts commands; empty means "/aep".
	Prefix string
	// ClosedAt is when GitHub says the issue was closed (zero when open or
	// unknown); the rule does not read it, the owner's inbox shows it.
	ClosedAt time.Time
	// Final is the repository config's closure.final when the issue was
	// closed: FinalOwner, or "" / "certified" for a certified closure by
	// anyone.
	Final string `json:"final,omitempty"`
}

func (f Facts) prefix() string {
	if f.Prefix == "" {
		return "/aep"
	}
	return f.Prefix
}

// AwaitsEvidence reports that one of merged (the merged attempts that name
// the unit) has no evidence among f.Attempts yet: the unit was closed by
// that merge, and its readback and certificate come after it. The unit is
// not done meanwhile; it is only not yet answered as closed without
// evidence.
func (f Facts) AwaitsEvidence(merged []int) bool {
	for _, pr := range merged {
		if !slices.ContainsFunc(f.Attempts, func(a Attempt) bool { return a.PR == pr }) {
			return true
		}
	}
	return false
}
