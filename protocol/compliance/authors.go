package compliance

import (
	"fmt"

	"github.com/aepgate/aepgate/protocol/gitsha"
)

// Signature is what GitHub says of one commit's signature (GraphQL
// Commit.signature).
type Signature struct {
	// State is GitHub's GitSignatureState ("VALID", "UNKNOWN_KEY", ...);
	// "" when the commit carries no signature.
	State string
	// Valid is GitHub's isValid: the signature is valid and GitHub
	// verified it.
	Valid bool
	// Signer is the login of the account GitHub verified the signature
	// for; "" when none.
	Signer string
	// ByGitHub is wasSignedByGitHub: GitHub made the signature with its
	// own key (the "web-flow" signature of a commit made on github.com or
	// through the API).
	ByGitHub bool
}

// Commit is what is known of one commit that introduced lines of the log.
type Commit struct {
	SHA string
	// Known is false when GitHub does not know the commit (it was never
	// pushed there), so its signature cannot be told.
	Known     bool
	Signature Signature
	// Claimed are the logins the commit names without proof: the GitHub
	// noreply address in its git author e-mail, the account GitHub links
	// to that e-mail. Anyone can write any e-mail into a commit, so they
	// never make a verdict's author; they only add to a task's executors.
	Claimed []string
}

// AuthorRule tells which account a commit proves wrote the lines it
// introduced: its login, or "" and why it proves none (a clause that
// follows "introduced by commit <sha>, ").
type AuthorRule func(Commit) (login, why string)

// SignHint is how to make a verdict commit count, said after a refusal.
const SignHint = "sign the commit with a key added to your GitHub account as a signing key (see docs/action.md, \"Signing verdicts\")"

// SignedAuthor is the author rule: a commit is by the account GitHub
// verified its signature for (isValid, state VALID, a signer), as
// policy-bot's has_valid_signatures_by rule reads it. A git author or
// committer e-mail is free text, and GitHub links a commit to an account
// by that same e-mail, so neither ever makes an author. A signature GitHub
// made with its own key (wasSignedByGitHub, a commit GitHub made itself
// in the web editor or for an API call) does not count either: it shows
// that GitHub made the commit, not which account asked; the commit names
// its author only in its author fields, which an API caller writes.
func SignedAuthor(c Commit) (string, string) {
	s := c.Signature
	switch {
	case !c.Known:
		return "", "which GitHub does not know, so whether an auditor signed it cannot be told; push the commit to GitHub"
	case s.State == "" || s.State == "UNSIGNED":
		return "", "which carries no signature GitHub verified for an auditor; " + SignHint
	case s.ByGitHub:
		return "", "which GitHub signed with its own key (a commit made on github.com or through the API): that shows GitHub made the commit, not who wrote the line; " + SignHint
	case !s.Valid || s.State != "VALID":
		return "", fmt.Sprintf("whose signature GitHub did not verify (%s); %s", s.State, SignHint)
	case s.Signer == "":
		return "", "whose signature GitHub verified for no account; " + SignHint
	}
	return s.Signer, ""
}

// Attribute is who c counts as under rule: the proven login (or why
// none) and the logins c only claims.
func Attribute(c Commit, rule AuthorRule) Author {
	login, why := rule(c)
	return Author{Login: login, Commit: c.SHA, Claimed: c.Claimed, Unproven: why}
}

// unproven is KnownAuthor's message for a verdict line whose commit
// proves no author.
func unproven(v Verdict) string {
	why := v.By.Unproven
	if why == "" {
		why = "which is linked to no GitHub account, so it cannot be shown to be an auditor's"
	}
	return fmt.Sprintf("%s %s introduced by commit %s, %s", v.ID, v.Word, orUnknown(gitsha.Short(v.By.Commit)), why)
}
