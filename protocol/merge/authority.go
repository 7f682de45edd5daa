package merge

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/login"
	"github.com/aepgate/aepgate/protocol/refusal"
)

// The authorities a merge is recorded under (AuthorityResult.Authority).
const (
	// AuthorityUnchecked: merge.authority is unset; anyone may merge.
	AuthorityUnchecked = "unchecked"
	// AuthorityOwner: the merger is a listed owner (merge.authority lists
	// owners).
	AuthorityOwner = "owner"
	// AuthorityCoordinator: merge.authority names the merger's login.
	AuthorityCoordinator = "coordinator"
	// AuthorityQueue: GitHub's merge queue merged (merge.authority lists
	// merge-queue).
	AuthorityQueue = "merge-queue"
	// AuthorityOwnerAccepted: the merger held none, and an owner accepted
	// the merge with accept-merge.
	AuthorityOwnerAccepted = "owner-accepted"
)

// TokenNoAuthority is the refusal of a merge by someone who holds no merge
// authority, with the merger's login after the colon.
const TokenNoAuthority = "merge-authority-missing"

// The entries of merge.authority besides logins (protocol/config's
// MergeByOwners and MergeByQueue).
const (
	entryOwners = "owners"
	entryQueue  = "merge-queue"
)

// queueLogins are the login of GitHub's merge queue as its pull requests'
// mergedBy: a Bot, "github-merge-queue" in GraphQL and
// "github-merge-queue[bot]" in REST.
var queueLogins = []string{"github-merge-queue", "github-merge-queue[bot]"}

// Actor is a GitHub account: its login and type (User, Bot, …).
type Actor struct {
	Login, Type string
}

// Comment is a comment on the merged pull request, as an acceptance may
// be: its ID, author, body and whether it was ever edited.
type Comment struct {
	ID     int64
	Author Actor
	Body   string
	Edited bool
}

// AuthorityInput is what a merge's authority is judged on.
type AuthorityInput struct {
	// Authority is merge.authority; empty means unset (not checked).
	Authority []string
	// Owners are the repository's owners as listed (logins; a team entry
	// matches no login here).
	Owners []string
	// MergedBy is the merged pull request's mergedBy; empty Login when
	// GitHub names none (a deleted account).
	MergedBy Actor
	// MergeSHA is the merge commit an acceptance must name.
	MergeSHA string
	// Prefix is the command prefix; Comments are the pull request's.
	Prefix   string
	Comments []Comment
	// Writers are the logins (lowercase) whose live role GitHub confirms
	// as write, maintain or admin, among AcceptanceAuthors.
	Writers map[string]bool
}

// AuthorityResult says under which authority a merge was made.
type AuthorityResult struct {
	// Held is true when the merge stands: unchecked, by an authority, or
	// accepted by an owner.
	Held bool
	// Authority is one of the Authority constants ("" when not Held).
	Authority string
	// MergedBy is the merger's login.
	MergedBy string
	// AcceptedBy and Acceptance are the owner and comment of an
	// accept-merge (AuthorityOwnerAccepted only).
	AcceptedBy string
	Acceptance int64
	// Refusal says why the merge does not stand and how an owner makes it
	// (nil when Held).
	Refusal *refusal.Refusal
}

// Authority judges who merged against merge.authority (craft-rules §4.1:
// who may merge; §3.7: the owner's grant to a coordinator). A merger who
// holds none is released only by a listed owner's unedited accept-merge
// naming this merge commit, from a User account.
func Authority(in AuthorityInput) AuthorityResult {
	by := in.MergedBy.Login
	out := AuthorityResult{MergedBy: by}
	if len(in.Authority) == 0 {
		out.Held, out.Authority = true, AuthorityUnchecked
		return out
	}
	if a := held(in); a != "" {
		out.Held, out.Authority = true, a
		return out
	}
	if c, ok := acceptance(in); ok {
		out.Held, out.Authority, out.AcceptedBy, out.Acceptance = true, AuthorityOwnerAccepted, c.Author.Login, c.ID
		return out
	}
	seen := "@" + by
	if by == "" {
		seen = "no merger GitHub names"
	}
	prefix := in.Prefix
	if prefix == "" {
		prefix = command.DefaultPrefix
	}
	out.Refusal = &refusal.Refusal{Token: TokenNoAuthority + ":" + by,
		Expected: fmt.Sprintf("a merge by one of merge.authority [%s], or an owner's `%s %s %s` on the pull request",
			strings.Join(in.Authority, ", "), prefix, command.VerbAcceptMerge, in.MergeSHA),
		Seen: seen + ", who holds no merge authority"}
	return out
}

// held is the authority the merger holds, "" for none.
func held(in AuthorityInput) string {
	by := in.MergedBy
	if by.Login == "" {
		return ""
	}
	for _, a := range in.Authority {
		switch a {
		case entryOwners:
			if by.Type == "User" && login.In(in.Owners, by.Login) {
				return AuthorityOwner
			}
		case entryQueue:
			if by.Type == "Bot" && login.In(queueLogins, by.Login) {
				return AuthorityQueue
			}
		default:
			if login.Equal(a, by.Login) {
				return AuthorityCoordinator
			}
		}
	}
	return ""
}

// acceptance is the first unedited accept-merge of this merge commit by a
// listed owner from a User account whose live role is write or above.
func acceptance(in AuthorityInput) (Comment, bool) {
	for _, c := range accepting(in) {
		if in.Writers[strings.ToLower(c.Author.Login)] {
			return c, true
		}
	}
	return Comment{}, false
}

// AcceptanceAuthors are the logins whose live role decides an acceptance:
// the listed owners (User accounts) who answered accept-merge of this merge
// commit in an unedited comment. Nothing when the merger holds authority.
func AcceptanceAuthors(in AuthorityInput) []string {
	if len(in.Authority) == 0 || held(in) != "" {
		return nil
	}
	var out []string
	for _, c := range accepting(in) {
		if !login.In(out, c.Author.Login) {
			out = append(out, c.Author.Login)
		}
	}
	return out
}

// accepting are the unedited comments by listed owners (User accounts)
// with an accept-merge of this merge commit.
func accepting(in AuthorityInput) []Comment {
	var out []Comment
	for _, c := range in.Comments {
		if c.Edited || c.Author.Type != "User" || !login.In(in.Owners, c.Author.Login) {
			continue
		}
		for _, cmd := range command.Parse(c.Body, in.Prefix) {
			if cmd.Verb == command.VerbAcceptMerge && cmd.Err == nil && cmd.SHA == strings.ToLower(in.MergeSHA) {
				out = append(out, c)
				break
			}
		}
	}
	return out
}
