package incrementrules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/protocol/approval"
	"github.com/aepgate/aepgate/protocol/command"
)

// Answer is the App's answer to one `accept` line of a control-thread
// comment: accepted, or refused with the reason, which names the command
// that would count.
type Answer struct {
	CommentID int64
	Line      int
	// Raw is the line as written; Author the comment's author.
	Raw    string
	Author string
	// Malformed: the line is no well-formed accept (the reply then lists
	// the commands).
	Malformed bool
	Accepted  bool
	Reason    string
}

// Answers answer each well-formed accept line in f's comments that names
// f's milestone, by the rules Decide counts an acceptance with: the
// comment rules (not edited, no HOLD), the owner's authority, then the
// accept rules (this milestone, bound to the candidate).
func Answers(f Facts, r Rules) []Answer {
	var out []Answer
	var so []approval.Answer // the accepts counted so far
	for _, c := range f.Comments {
		for _, cmd := range command.Parse(c.Body, f.Prefix) {
			if cmd.Verb != command.VerbAccept || cmd.Err != nil || cmd.Milestone != f.Milestone {
				continue
			}
			a := Answer{CommentID: c.ID, Line: cmd.Line, Raw: cmd.Raw, Author: c.Author.Login, Accepted: true}
			if why := refusedComment(r, c, f.Owners); why != "" {
				a.Accepted, a.Reason = false, why+"; "+useInstead(f)
			} else if why := acceptRefused(f, r, cmd); why != "" {
				a.Accepted, a.Reason = false, why+"; "+useInstead(f)
			} else if why := repeated(f, r, so, a.Author); why != "" {
				a.Accepted, a.Reason = false, why+"; another owner accepts it with `"+acceptCommand(f)+"`"
			} else {
				so = append(so, approval.Answer{Login: a.Author})
			}
			out = append(out, a)
		}
	}
	return out
}

// refusedComment says why comment c cannot count for listed (its
// comment rules, then its author's authority), "" when it can.
func refusedComment(r Rules, c Comment, listed []string) string {
	for _, cr := range r.Comment {
		if why := cr.Check(c); why != "" {
			return why
		}
	}
	for _, a := range r.Owner {
		if why := a.Check(c.Author, listed); why != "" {
			return why
		}
	}
	return ""
}

// useInstead names what would accept f's increment.
func useInstead(f Facts) string {
	if f.Candidate.SHA == "" {
		return fmt.Sprintf("once aepgate/increment names milestone %d's integrated candidate, an owner accepts it in a new comment with `%s accept %d <sha>`", f.Milestone, f.prefix(), f.Milestone)
	}
	return fmt.Sprintf("an owner (%s) accepts it in a new comment with `%s`", strings.Join(f.Owners, ", "), acceptCommand(f))
}

// Unanswerable answers the accept lines of comments that no milestone's
// Answers answers: malformed ones, and those naming a milestone not in
// known (the open milestones the App judged).
func Unanswerable(comments []Comment, prefix string, known []int) []Answer {
	if prefix == "" {
		prefix = "/aep"
	}
	var out []Answer
	for _, c := range comments {
		for _, cmd := range command.Parse(c.Body, prefix) {
			a := Answer{CommentID: c.ID, Line: cmd.Line, Raw: cmd.Raw, Author: c.Author.Login}
			switch {
			case cmd.Verb != command.VerbAccept:
				continue
			case cmd.Err != nil:
				a.Malformed, a.Reason = true, cmd.Err.Error()
			case !slices.Contains(known, cmd.Milestone):
				a.Reason = fmt.Sprintf("milestone %d is not an open milestone of this repository; accept an open milestone's integrated candidate with `%s accept <milestone-number> <sha>`, the SHA its aepgate/increment run names", cmd.Milestone, prefix)
			default:
				continue
			}
			out = append(out, a)
		}
	}
	return out
}
