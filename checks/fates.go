package checks

import (
	"strings"

	"github.com/aepgate/aepgate/protocol/instructor"
)

// fates writes what became of every review and command considered for an
// agent's pull request (instructor.Decide), and how many independent
// approvals counted of how many are needed; nothing when d is nil (no
// listed agent made the pull request).
func fates(b *strings.Builder, d *instructor.Decision) {
	if d == nil {
		return
	}
	b.WriteString("\n### Approvals\n\n")
	if len(d.Fates) == 0 {
		b.WriteString("No audit, approving review or resolve command on this pull request yet.\n")
	} else {
		b.WriteString(instructor.FateHeader + instructor.FateRows(*d))
	}
	b.WriteString("\n" + instructor.FateSummary(*d) + "\n")
}
