package incrementrules

import (
	"fmt"

	"github.com/aepgate/aepgate/protocol/approval"
	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/gitsha"
)

// AcceptanceCategory is the owner-only category whose
// gates.<category>.approvals says how many distinct owners accept a high
// increment (Facts.Approvals): accepting it is the owners' product
// judgement, as a deploy gate is.
const AcceptanceCategory = "human-product-judgment-action"

// acceptor is one counted `accept` of the candidate: its comment and who
// wrote it.
type acceptor struct {
	id     int64
	author string
}

// acceptors are the counted accepts of f's candidate, oldest first.
func acceptors(f Facts, r Rules) []acceptor {
	var out []acceptor
	for _, c := range f.Comments {
		if !counted(r, c, f.Owners) {
			continue
		}
		for _, cmd := range command.Parse(c.Body, f.Prefix) {
			if cmd.Verb == command.VerbAccept && cmd.Err == nil && acceptRefused(f, r, cmd) == "" {
				out = append(out, acceptor{id: c.ID, author: c.Author.Login})
			}
		}
	}
	return out
}

// acceptance is the comment whose accept made the candidate accepted (0:
// none): with one owner needed, the newest counted accept; with more, the
// first after which enough distinct owners (r.Distinct) had accepted.
func acceptance(f Facts, r Rules) int64 {
	as := acceptors(f, r)
	if f.Approvals < 2 {
		if len(as) == 0 {
			return 0
		}
		return as[len(as)-1].id
	}
	var answers []approval.Answer
	for _, a := range as {
		answers = append(answers, approval.Answer{Login: a.author})
		if approval.Count(answers, f.Approvals, r.Distinct).Satisfied() {
			return a.id
		}
	}
	return 0
}

// acceptTally counts the distinct owners who accepted f's candidate
// against f.Approvals.
func acceptTally(f Facts, r Rules) approval.Tally {
	var answers []approval.Answer
	for _, a := range acceptors(f, r) {
		answers = append(answers, approval.Answer{Login: a.author})
	}
	return approval.Count(answers, f.Approvals, r.Distinct)
}

// acceptMissing is what the owners still owe a high increment: the
// acceptance, or, when more than one owner must accept, who did and how
// many more distinct owners must.
func acceptMissing(f Facts, r Rules) string {
	what := fmt.Sprintf("high risk: an owner accepts candidate %s with the command below, in a new comment on the control issue", gitsha.Short(f.Candidate.SHA))
	if f.Approvals < 2 {
		return what
	}
	t := acceptTally(f, r)
	if len(t.People) == 0 {
		return fmt.Sprintf("high risk: %d distinct owners accept candidate %s with the command below, each in a new comment on the control issue", f.Approvals, gitsha.Short(f.Candidate.SHA))
	}
	return fmt.Sprintf("high risk: %s of candidate %s; another owner accepts it with the command below, in a new comment on the control issue", t.Reason(), gitsha.Short(f.Candidate.SHA))
}

// repeated says why an accept by author adds no distinct owner to those
// before (so far), "" when it does or when one owner is enough.
func repeated(f Facts, r Rules, before []approval.Answer, author string) string {
	if f.Approvals < 2 {
		return ""
	}
	after := approval.Count(append(before, approval.Answer{Login: author}), f.Approvals, r.Distinct)
	if len(after.People) > len(approval.Count(before, f.Approvals, r.Distinct).People) {
		return ""
	}
	return fmt.Sprintf("%s already accepted candidate %s, and milestone %d needs %d distinct owners: %s", author, gitsha.Short(f.Candidate.SHA), f.Milestone, f.Approvals, after.Reason())
}
