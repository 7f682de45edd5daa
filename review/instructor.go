package review

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/instructor"
)

// NotInstructor ignores a review by whoever instructed an agent that made
// the pull request (Input.Instructed): who asked an agent for a change is
// one of its authors. When who instructed the agents cannot be known,
// nobody's review counts.
func NotInstructor(r Review, in *Input) string {
	f := in.Instructed
	if !f.Applies() {
		return ""
	}
	if f.Unknown != "" {
		return fmt.Sprintf("this pull request was made by the agent %s, and %s; nobody can be shown independent of whoever instructed it", strings.Join(f.Agents, ", "), f.Unknown)
	}
	if i := f.Of(r.Author.Login); i != nil {
		return fmt.Sprintf("%s instructed the agent %s that made this pull request (on issue #%d: %s); whoever asked an agent for a change is one of its authors and cannot audit it",
			r.Author.Login, i.Agent, f.Unit, roles(i.Roles))
	}
	return ""
}

// notInstructors is what missingReason adds about the instructors: who may
// not audit besides the authors.
func notInstructors(f *instructor.Finding) string {
	if !f.Applies() || len(f.Instructors) == 0 {
		return ""
	}
	var who []string
	for _, i := range f.Instructors {
		who = append(who, i.Login)
	}
	return " and did not instruct the agent (" + strings.Join(who, ", ") + ")"
}

// roles joins an instructor's roles for people.
func roles(rs []instructor.Role) string {
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = string(r)
	}
	return strings.Join(s, ", ")
}

// NotAgent ignores a review by a listed agent (Input.IsAgent), whatever
// its permission: an agent acts for whoever instructs it, so its review
// is never an independent audit.
func NotAgent(r Review, in *Input) string {
	if in.IsAgent == nil || !in.IsAgent(r.Author.Login) {
		return ""
	}
	return fmt.Sprintf("%s is a listed agent (config key agents): an agent's review never counts as an audit, whatever its permission; a person with write permission who neither wrote nor instructed the change audits it", r.Author.Login)
}
