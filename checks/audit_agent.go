package checks

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/instructor"
)

// agentNote says, for a pull request a listed agent made, who instructed
// it and what follows: their audits do not count as independent and their
// approval alone does not answer the contract-change gate.
func (w auditWriter) agentNote(f *instructor.Finding) {
	if !f.Applies() {
		return
	}
	agents := make([]string, len(f.Agents))
	for i, a := range f.Agents {
		agents[i] = code(a)
	}
	made := fmt.Sprintf("\nThis pull request was made by the agent %s", strings.Join(agents, ", "))
	switch {
	case f.Unknown != "":
		fmt.Fprintf(w.b, "%s, and %s: nobody can be shown independent of whoever instructed it, so no audit counts.\n", made, escapeHTML(f.Unknown))
	case f.Unit == 0:
		fmt.Fprintf(w.b, "%s; it names no work unit, so nobody is known to have instructed it.\n", made)
	case len(f.Instructors) == 0:
		fmt.Fprintf(w.b, "%s; no listed agent was assigned on issue #%d, so nobody is known to have instructed it.\n", made, f.Unit)
	default:
		fmt.Fprintf(w.b, "%s, instructed by %s on issue #%d: whoever asked an agent for a change is one of its authors, so their audits do not count as independent and their approval alone does not answer a contract-change gate.\n",
			made, instructors(f.Instructors), f.Unit)
	}
}

// instructors lists each instructor with why they count.
func instructors(is []instructor.Instructor) string {
	parts := make([]string, len(is))
	for i, in := range is {
		roles := make([]string, len(in.Roles))
		for j, r := range in.Roles {
			roles[j] = string(r)
		}
		parts[i] = fmt.Sprintf("@%s (%s)", in.Login, strings.Join(roles, ", "))
	}
	return strings.Join(parts, ", ")
}
