package increment

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/incrementrules"
)

// ClosedMarker starts the App's comment on a milestone closed before it
// was complete.
const ClosedMarker = "<!-- aepgate:increment-closed -->"

// closedComment says on the control issue that milestone v was closed
// before it was complete, what is missing and, with closure.reopen, that
// the App reopened it.
func closedComment(v incrementrules.Verdict, reopened bool) string {
	var b strings.Builder
	b.WriteString(ClosedMarker + "\n")
	who := "an account aepgate did not see (it missed the closure's event; the reconcile sweep found the milestone closed)"
	if v.ClosedBy != "" {
		who = "@" + v.ClosedBy
	}
	fmt.Fprintf(&b, "**aepgate: milestone %d was closed before it was complete** by %s, so the increment is not complete (stage: %s).\n\nMissing:\n\n", v.Milestone, who, v.Stage)
	for _, m := range v.Missing {
		fmt.Fprintf(&b, "- %s\n", strings.ReplaceAll(m.What, "\n", " "))
	}
	if reopened {
		b.WriteString("\nThe repository config sets `closure.reopen: true`, so aepgate reopened the milestone.\n")
	}
	b.WriteString("\nThe increment completes when `" + "aepgate/increment" + "` succeeds on its integrated commit (docs/increment.md).\n")
	return b.String()
}
