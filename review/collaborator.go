package review

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/gitsha"
	"github.com/aepgate/aepgate/protocol/login"
)

// Collaborator counts a review only from an account whose live role on the
// repository is write, maintain or admin, or triage when AuditTriage is
// set. Anyone can review a public repository's pull request, so without
// this rule an account of the author's own, with no permission at all,
// would be an independent auditor. An unknown role does not count.
func Collaborator(r Review, in *Input) string {
	role, known := roleOf(in.Permissions, r.Author.Login)
	switch {
	case !known || role == "":
		return fmt.Sprintf("%s's permission on this repository could not be read, so the review does not count yet; aepgate reads it again on the next evaluation", r.Author.Login)
	case role == "admin" || role == "maintain" || role == "write":
		return ""
	case role == "triage" && in.AuditTriage:
		return ""
	case role == "triage":
		return fmt.Sprintf("%s's role on this repository is triage; an auditor needs write, maintain or admin (or triage, when the config sets audit_triage: true)", r.Author.Login)
	}
	return fmt.Sprintf("%s's permission on this repository is %q; an auditor is a collaborator with write, maintain or admin", r.Author.Login, role)
}

// roleOf looks login up in perms: by its exact key, else ignoring ASCII
// case only (login.Equal), so a Unicode lookalike never inherits a role.
func roleOf(perms map[string]string, who string) (string, bool) {
	if v, ok := perms[who]; ok {
		return v, true
	}
	for k, v := range perms {
		if login.Equal(k, who) {
			return v, true
		}
	}
	return "", false
}

// NotPusher ignores a review by anyone who pushed one of the pull
// request's commits: a commit's author and committer are whatever the
// pusher wrote into it, so the pusher counts as its author.
func NotPusher(r Review, in *Input) string {
	for _, p := range in.Pushers {
		if sameLogin(r.Author.Login, p.Login) {
			return fmt.Sprintf("%s pushed commit %s to this pull request; whoever pushed the change cannot audit it", r.Author.Login, gitsha.Short(p.SHA))
		}
	}
	return ""
}

// UnattributedNeedsListed refuses every review, when no auditors are
// configured, of a pull request holding a commit whose author and
// committer are both linked to no GitHub account: who wrote it cannot be
// told apart from the reviewer, so only a listed auditor may judge it.
func UnattributedNeedsListed(r Review, in *Input) string {
	if len(in.Auditors) > 0 {
		return ""
	}
	if c, ok := unattributed(in.Commits); ok {
		return unattributedReason(c)
	}
	return ""
}

// unattributed returns the first commit whose author and committer are
// both linked to no account (no login, no GitHub no-reply address).
func unattributed(commits []Commit) (Commit, bool) {
	for _, c := range commits {
		if !linked(c.AuthorLogin, c.AuthorEmail) && !linked(c.CommitterLogin, c.CommitterEmail) {
			return c, true
		}
	}
	return Commit{}, false
}

func linked(login, email string) bool { return login != "" || noreplyLogin(email) != "" }

// unattributedReason says why nobody may audit c's pull request yet and
// how to fix it.
func unattributedReason(c Commit) string {
	return fmt.Sprintf("commit %s is authored by %s and committed by %s, linked to no GitHub account, so who wrote it cannot be told apart from any reviewer; with no auditors configured nobody may audit this pull request: list the auditors in .github/aepgate.yml on the default branch (auditors: [login, ...])",
		gitsha.Short(c.SHA), identity(c.AuthorName, c.AuthorEmail), identity(c.CommitterName, c.CommitterEmail))
}

func identity(name, email string) string {
	return fmt.Sprintf("%s <%s>", orUnknown(strings.TrimSpace(name)), orUnknown(strings.TrimSpace(email)))
}
