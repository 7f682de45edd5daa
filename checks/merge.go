package checks

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/gitsha"
	"github.com/aepgate/aepgate/protocol/merge"
)

// Merge renders a merge decision as the aepgate/merge check run on head:
// success when every condition holds, failure otherwise; the summary lists
// each condition with its evidence and what is missing.
func Merge(head string, pr int, d merge.Decision) Run {
	r := Run{Name: NameMerge, HeadSHA: head}
	var unmet []string
	for _, c := range d.Conditions {
		if !c.OK {
			unmet = append(unmet, c.Name)
		}
	}
	var b strings.Builder
	if d.Ready {
		r.Conclusion, r.Title = ConclusionSuccess, "Ready to merge at "+gitsha.Short(head)
		fmt.Fprintf(&b, "Every condition for merging pull request #%d holds at `%s`.\n\n", pr, head)
	} else {
		r.Conclusion = ConclusionFailure
		r.Title = "Not ready: " + strings.Join(unmet, ", ")
		fmt.Fprintf(&b, "Pull request #%d may not merge at `%s` yet: %s.\n\n", pr, head, plural(len(unmet), "condition does not hold", "conditions do not hold"))
	}
	b.WriteString("| Condition | Holds | Evidence or what is missing |\n| --- | --- | --- |\n")
	for _, c := range d.Conditions {
		mark, lines := "✅", c.Evidence
		if !c.OK {
			mark, lines = "❌", c.Missing
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", c.Name, mark, cell(escapeHTML(strings.Join(lines, "; "))))
	}
	r.Summary = b.String() + DocsFooter(r.Name)
	return r
}
