package verdict

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/closurerules"
)

// ClosureMarker starts the App's comment on a closure without evidence.
const ClosureMarker = "<!-- aepgate:closure -->"

// ClosureComment is the App's one comment on a unit closed without
// evidence: who closed it, what is missing, what its dependents see and
// the owner's exact command; reopened says the App reopened it.
func ClosureComment(v closurerules.Verdict, reopened bool) string {
	var b strings.Builder
	b.WriteString(ClosureMarker + "\n")
	fmt.Fprintf(&b, "**aepgate: #%d was closed without evidence** by @%s, so it does not count as done.\n\n", v.Number, v.Closer)
	fmt.Fprintf(&b, "Missing: %s.\n\n", v.Missing)
	if reopened {
		b.WriteString("The repository config sets `closure.reopen: true`, so aepgate reopened the issue.\n\n")
	} else {
		b.WriteString("Units that depend on it stay blocked (`aepgate/work-unit`), and the owner's board lists it.\n\n")
	}
	fmt.Fprintf(&b, "To count it done without that evidence, an owner comments on this issue:\n\n```\n%s\n```\n", v.Command)
	return b.String()
}
