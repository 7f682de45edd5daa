package checks

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/gitsha"
)

// IncrementWithdrawn renders milestone's increment certificate on head
// (its external_id kept, so the publisher updates the same run) as
// withdrawn: conclusion neutral, the title and summary saying why (the
// integrated candidate moved, naming the new one) and what approves now.
// A run so rendered no longer verifies, so no deployment requiring a
// complete increment accepts head on it.
func IncrementWithdrawn(head, externalID string, milestone int, candidate, why string) Run {
	now := "milestone %d has no integrated candidate now"
	if candidate != "" {
		now = "milestone %d's integrated candidate is now " + gitsha.Short(candidate)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**This increment certificate is withdrawn**: %s.\n\n", escapeInline(defuseAutolinks(oneLine(why, 1000))))
	fmt.Fprintf(&b, "It no longer approves %s: a deployment requiring a complete increment (`require: increment`) is rejected here. ", code(head))
	if candidate != "" {
		fmt.Fprintf(&b, "The `%s` run on %s says what milestone %d is now.\n", NameIncrement, code(candidate), milestone)
	} else {
		fmt.Fprintf(&b, "The `%s` run on milestone %d's next integrated candidate will say what it is.\n", NameIncrement, milestone)
	}
	return Run{Name: NameIncrement, HeadSHA: head, ExternalID: externalID, Conclusion: ConclusionNeutral,
		Title: "Withdrawn: " + fmt.Sprintf(now, milestone), Summary: b.String()}
}
