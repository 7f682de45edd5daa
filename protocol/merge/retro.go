package merge

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/login"
)

// OverriddenPrefix starts the title of an aepgate check an owner overrode
// (checks.OverriddenTitle): "overridden by <owner>: <reason>".
const OverriddenPrefix = "overridden by "

// TokenRetroAuditOwed is the refusal of a certificate for a merge whose
// head an owner overrode and whose retro-audit is not settled.
const TokenRetroAuditOwed = "retro-audit-owed"

// How a retro-audit was settled (Retro.SettledBy).
const (
	SettledByAudit  = "audit"
	SettledByWaiver = "waiver"
)

// HeadCheck is one of the App's own checks at the merged head, as GitHub
// shows its newest run: only the App writes them, so a title saying
// "overridden by" is the App's own record of an override in force when the
// head merged.
type HeadCheck struct {
	Name, Conclusion, Title string
}

// RetroInput is what a merge's retro-audit is judged on (docs/merge.md,
// "Retro-audit").
type RetroInput struct {
	// Checks are the App's checks at the merged head.
	Checks []HeadCheck
	// Head is the merged head, MergeSHA the merge commit.
	Head, MergeSHA string
	// AuditSHA and AuditVerdict are what the audit (an independent
	// auditor's review, judged by the audit's rules) passed for the merged
	// pull request; Auditor and AuditReview name it.
	AuditSHA, AuditVerdict, Auditor string
	AuditReview                     int64
	// Owners, Prefix and Comments are the repository's owners, the command
	// prefix and the merged pull request's comments, where a waiver is.
	Owners   []string
	Prefix   string
	Comments []Comment
	// Writers are the logins (lowercase) whose live role GitHub confirms
	// as write, maintain or admin, among WaiverAuthors.
	Writers map[string]bool
}

// Retro is what a merge owes for an override, and how it was settled.
type Retro struct {
	// Overridden are the checks overridden at the merged head, each with
	// its title; none when the merge owes nothing.
	Overridden []string `json:"overridden,omitempty"`
	// Owed: something was overridden and nothing settles it yet.
	Owed bool `json:"owed,omitempty"`
	// SettledBy is SettledByAudit or SettledByWaiver ("" while owed);
	// Evidence says what settled it.
	SettledBy string `json:"settled_by,omitempty"`
	Evidence  string `json:"evidence,omitempty"`
	// WaivedBy, Waiver and Reason are the owner, comment and reason of a
	// waiver (SettledByWaiver only).
	WaivedBy string `json:"waived_by,omitempty"`
	Waiver   int64  `json:"waiver,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

// RetroAudit judges what a merge owes for its overrides: nothing when no
// check at its head was overridden; else a retro-audit, settled by an
// audit PASS at the merged head or the merge commit, or by a listed
// owner's unedited `waive <reason>` on the merged pull request from a User
// account whose live role is write or above.
func RetroAudit(in RetroInput) Retro {
	var r Retro
	for _, c := range in.Checks {
		if strings.HasPrefix(c.Title, OverriddenPrefix) {
			r.Overridden = append(r.Overridden, c.Name+" ("+c.Title+")")
		}
	}
	if len(r.Overridden) == 0 {
		return r
	}
	if strings.EqualFold(in.AuditVerdict, "PASS") && in.AuditSHA != "" && (in.AuditSHA == in.Head || in.AuditSHA == in.MergeSHA) {
		r.SettledBy = SettledByAudit
		r.Evidence = fmt.Sprintf("audit PASS by %s (review %d) at %s", in.Auditor, in.AuditReview, in.AuditSHA)
		return r
	}
	for _, w := range waivers(in) {
		if in.Writers[strings.ToLower(w.c.Author.Login)] {
			r.SettledBy, r.WaivedBy, r.Waiver, r.Reason = SettledByWaiver, w.c.Author.Login, w.c.ID, w.reason
			r.Evidence = fmt.Sprintf("waived by the owner %s (comment %d): %s", w.c.Author.Login, w.c.ID, w.reason)
			return r
		}
	}
	r.Owed = true
	return r
}

// WaiverAuthors are the logins whose live role decides a waiver: the listed
// owners (User accounts) who wrote a well-formed waive in an unedited
// comment. Nothing when nothing was overridden.
func WaiverAuthors(in RetroInput) []string {
	var out []string
	if !overridden(in) {
		return nil
	}
	for _, w := range waivers(in) {
		if !login.In(out, w.c.Author.Login) {
			out = append(out, w.c.Author.Login)
		}
	}
	return out
}

// overridden reports whether a check at the merged head was overridden.
func overridden(in RetroInput) bool {
	for _, c := range in.Checks {
		if strings.HasPrefix(c.Title, OverriddenPrefix) {
			return true
		}
	}
	return false
}

type waiver struct {
	c      Comment
	reason string
}

// waivers are the unedited comments by listed owners (User accounts) with
// a well-formed waive, in order.
func waivers(in RetroInput) []waiver {
	var out []waiver
	for _, c := range in.Comments {
		if c.Edited || c.Author.Type != "User" || !login.In(in.Owners, c.Author.Login) {
			continue
		}
		for _, cmd := range command.Parse(c.Body, in.Prefix) {
			if cmd.Verb == command.VerbWaive && cmd.Err == nil {
				out = append(out, waiver{c, cmd.Reason})
				break
			}
		}
	}
	return out
}

// Expected says how a retro-audit is settled, for a refusal.
func (in RetroInput) Expected(pr int) string {
	prefix := in.Prefix
	if prefix == "" {
		prefix = command.DefaultPrefix
	}
	return fmt.Sprintf("an independent audit PASS at the merged commit %s, or an owner's `%s %s <reason>` on #%d", in.Head, prefix, command.VerbWaive, pr)
}
