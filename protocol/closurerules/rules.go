package closurerules

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/login"
)

// AuthorityRule says why an account's act is not the owner's own (""
// when it is).
type AuthorityRule struct {
	Name  string
	Check func(a Actor, owners []string) string
}

// EvidenceRule names the evidence that shows the unit done (the
// description, "" when there is none); it reads the authority rules for
// owner acts.
type EvidenceRule struct {
	Name string
	Find func(f Facts, r Rules) string
}

// CommandRule says why a `/aep close` comment does not count ("" when
// it does), before its author's authority is asked.
type CommandRule struct {
	Name  string
	Check func(c Command) string
}

// Rules are the rules Judge applies. Tests pass a list with one rule
// removed to show what it stops.
type Rules struct {
	Authority []AuthorityRule
	Command   []CommandRule
	// HoldVoids, when set, makes a closure while a HOLD applied never count.
	HoldVoids bool
	// CompletedOnly, when set, counts only closures with state_reason
	// completed; an owner's not-planned closure cancels the unit.
	CompletedOnly bool
	// OwnerFinal, when set, applies closure.final: owner (FinalOwner): a
	// unit with evidence counts as done only once the owner closed it or
	// said `/aep close`; until then it is NeedsReview.
	OwnerFinal bool
	// RetroAudit, when set, keeps a unit whose merged attempt was merged
	// under an owner's override from counting as done until its
	// retro-audit is settled (RetroOwed).
	RetroAudit bool
	Evidence   []EvidenceRule
}

// DefaultRules are every rule.
func DefaultRules() Rules {
	return Rules{
		Authority: []AuthorityRule{
			{"listed-owner", ListedOwner},
			{"human-owner", HumanOwner},
			{"live-write", LiveWrite},
		},
		Command: []CommandRule{
			{"created-only", CreatedOnly},
			{"not-edited", NotEdited},
		},
		HoldVoids:     true,
		CompletedOnly: true,
		OwnerFinal:    true,
		RetroAudit:    true,
		Evidence: []EvidenceRule{
			{"certificate", Certified},
			{"low-risk-readback", LowRiskReadback},
			{"owner-closed", OwnerClosed},
			{"owner-command", OwnerCommand},
		},
	}
}

// ListedOwner: only a login listed in owners is the owner; what anyone
// says for the owner is never authority.
func ListedOwner(a Actor, owners []string) string {
	if login.In(owners, a.Login) {
		return ""
	}
	return fmt.Sprintf("%s is not listed in owners (%s)", orSomeone(a.Login), strings.Join(owners, ", "))
}

// HumanOwner: an owner's act counts only from a User account.
func HumanOwner(a Actor, _ []string) string {
	if a.Type != "User" || strings.HasSuffix(strings.ToLower(a.Login), "[bot]") {
		return fmt.Sprintf("%s is a %q account, not a User", orSomeone(a.Login), a.Type)
	}
	return ""
}

// LiveWrite: GitHub must confirm write, maintain or admin right now.
func LiveWrite(a Actor, _ []string) string {
	switch a.Permission {
	case "write", "maintain", "admin":
		return ""
	case "":
		return fmt.Sprintf("%s's permission could not be confirmed", orSomeone(a.Login))
	}
	return fmt.Sprintf("%s's permission is %q right now, not write, maintain or admin", orSomeone(a.Login), a.Permission)
}

// authority returns the first refusal of rules for a, or "".
func authority(rules []AuthorityRule, a Actor, owners []string) string {
	for _, r := range rules {
		if why := r.Check(a, owners); why != "" {
			return why
		}
	}
	return ""
}

// Certified: a merged attempt carries a valid aepgate/certificate.
func Certified(f Facts, _ Rules) string {
	for _, a := range f.Attempts {
		if a.MergeSHA != "" && a.CertificateSHA256 != "" {
			return fmt.Sprintf("certificate %s of #%d at %s", a.CertificateSHA256, a.PR, a.MergeSHA)
		}
	}
	return ""
}

// LowRiskReadback: a low-risk unit whose merged attempt passed
// aepgate/merge and aepgate/readback at its merge commit.
func LowRiskReadback(f Facts, _ Rules) string {
	if f.Risk != "low" {
		return ""
	}
	for _, a := range f.Attempts {
		if a.MergeSHA != "" && a.MergePassed && a.ReadbackPassed {
			return fmt.Sprintf("low risk: #%d passed aepgate/merge and aepgate/readback at %s", a.PR, a.MergeSHA)
		}
	}
	return ""
}

// OwnerClosed: an owner closed the issue themselves.
func OwnerClosed(f Facts, r Rules) string {
	if authority(r.Authority, f.ClosedBy, f.Owners) != "" {
		return ""
	}
	return fmt.Sprintf("closed by the owner %s", f.ClosedBy.Login)
}

// OwnerCommand: an owner said `/aep close <reason>` in a newly created,
// unedited comment.
func OwnerCommand(f Facts, r Rules) string {
	for _, c := range f.Commands {
		if c.Reason == "" || commandRefused(r.Command, c) != "" {
			continue
		}
		if authority(r.Authority, c.Actor, f.Owners) == "" {
			return fmt.Sprintf("%s close by the owner %s (comment %d): %s", f.prefix(), c.Login, c.CommentID, c.Reason)
		}
	}
	return ""
}

// CreatedOnly: only a newly created comment counts, never an edit event.
func CreatedOnly(c Command) string {
	if c.Event == EventCommentCreated {
		return ""
	}
	return fmt.Sprintf("comment %d counts only as a newly created comment (saw %q)", c.CommentID, c.Event)
}

// NotEdited: nothing in a comment edited after it was created counts.
func NotEdited(c Command) string {
	if c.Updated.After(c.Created) {
		return fmt.Sprintf("comment %d was edited after it was posted", c.CommentID)
	}
	return ""
}

// commandRefused returns the first refusal of rules for c, or "".
func commandRefused(rules []CommandRule, c Command) string {
	for _, r := range rules {
		if why := r.Check(c); why != "" {
			return why
		}
	}
	return ""
}
