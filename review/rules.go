package review

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/protocol/gitsha"
	"github.com/aepgate/aepgate/protocol/login"
)

// Rule is one "who counts" rule: Check returns why a review does not count
// as an audit (saying what would), or "" when the rule lets it through.
type Rule struct {
	Name  string
	Check func(Review, *Input) string
}

// DefaultRules are the eligibility and independence rules, in the order
// their reasons are reported.
func DefaultRules() []Rule {
	return []Rule{
		{"has-block", HasAuditBlock},
		{"submitted", Submitted},
		{"not-edited", NotEdited},
		{"known-author", KnownAuthor},
		{"not-bot", NotBot},
		{"not-agent", NotAgent},
		{"collaborator", Collaborator},
		{"not-pr-author", NotPRAuthor},
		{"not-commit-author", NotCommitAuthor},
		{"not-pusher", NotPusher},
		{"not-instructor", NotInstructor},
		{"listed-auditor", ListedAuditor},
		{"unattributed-needs-listed", UnattributedNeedsListed},
	}
}

// HasAuditBlock ignores a review without an aep-audit block: it is an
// ordinary review, not an audit.
func HasAuditBlock(r Review, _ *Input) string {
	if !HasBlock(r.Body) {
		return "no aep-audit block, so it is an ordinary review, not an audit"
	}
	return ""
}

// Submitted counts only a submitted review that was not dismissed.
func Submitted(r Review, _ *Input) string {
	switch r.State {
	case StateApproved, StateChangesRequested, StateCommented:
		return ""
	case StateDismissed:
		return "dismissed, so it no longer counts"
	}
	return fmt.Sprintf("its state is %q; only a submitted review counts", r.State)
}

// NotEdited ignores a review whose body was edited after submission: what
// counted when it was submitted can no longer be shown.
func NotEdited(r Review, _ *Input) string {
	if r.Edited {
		return "edited after it was submitted, so it counts for nothing; submit a new review instead"
	}
	return ""
}

// KnownAuthor ignores a review whose author is unknown (a deleted account).
func KnownAuthor(r Review, _ *Input) string {
	if r.Author.Login == "" {
		return "its author is unknown (a deleted account)"
	}
	return ""
}

// NotBot ignores every review not written by a User account. A bot acting
// for the pull request's author cannot be told apart from one acting for
// anyone else, so bots never audit.
func NotBot(r Review, _ *Input) string {
	if isBot(r.Author) {
		return fmt.Sprintf("%s is a bot; a bot acting for the author cannot be told apart from an independent one, so bots never audit", r.Author.Login)
	}
	if r.Author.Type != "User" {
		return fmt.Sprintf("%s is a %s account; only a User account audits", r.Author.Login, orUnknown(r.Author.Type))
	}
	return ""
}

func isBot(a Actor) bool {
	return a.Type == "Bot" || strings.HasSuffix(strings.ToLower(a.Login), "[bot]")
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// NotPRAuthor ignores the pull request author's own review.
func NotPRAuthor(r Review, in *Input) string {
	if sameLogin(r.Author.Login, in.PRAuthor.Login) {
		return fmt.Sprintf("%s opened this pull request; the author cannot audit their own change", r.Author.Login)
	}
	return ""
}

// NotCommitAuthor ignores a review by an author or committer of any of the
// pull request's commits (see wrote).
func NotCommitAuthor(r Review, in *Input) string {
	for _, c := range in.Commits {
		if role := wrote(r.Author.Login, c); role != "" {
			return fmt.Sprintf("%s is the %s of commit %s in this pull request; whoever wrote the change cannot audit it", r.Author.Login, role, gitsha.Short(c.SHA))
		}
	}
	return ""
}

// ListedAuditor ignores anyone not listed in auditors, when auditors are
// configured (logins compared without case).
func ListedAuditor(r Review, in *Input) string {
	if len(in.Auditors) == 0 || slices.ContainsFunc(in.Auditors, func(a string) bool { return sameLogin(a, r.Author.Login) }) {
		return ""
	}
	return fmt.Sprintf("%s is not listed in auditors (%s)", r.Author.Login, strings.Join(in.Auditors, ", "))
}

func sameLogin(a, b string) bool { return login.Equal(a, b) }
