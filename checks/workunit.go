package checks

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/workunit"
)

// noNativeBlockers is added when the server has no issue dependencies.
const noNativeBlockers = "\n_This GitHub server has no issue dependencies (blocked-by), so only the contract's `depends_on` was checked._\n"

// WorkUnit renders a work-unit verdict as the aepgate/work-unit check run on
// head. unitTitle is the unit issue's title; nativeBlockers is false when the
// server has no issue dependencies, which the summary then says.
func WorkUnit(head string, v workunit.Verdict, unitTitle string, nativeBlockers bool) Run {
	r := Run{Name: NameWorkUnit, HeadSHA: head}
	var b strings.Builder
	if v.OK {
		r.Conclusion = ConclusionSuccess
		r.Title = fmt.Sprintf("Work unit #%d: %s", v.Unit, oneLine(unitTitle, 100))
		fmt.Fprintf(&b, "This pull request is an attempt at work unit #%d. Its contract is valid and its dependencies are closed.\n\n", v.Unit)
		fmt.Fprintf(&b, "**Goal:** %s\n\n**Risk:** %s · **Class:** %s\n\n**Acceptance**\n", oneLine(v.Contract.Goal, 800), v.Contract.Risk, v.Contract.Class)
		for _, a := range v.Contract.Acceptance {
			fmt.Fprintf(&b, "- %s\n", oneLine(a, 800))
		}
	} else {
		r.Conclusion = ConclusionFailure
		r.Title = plural(len(v.Reasons), "problem", "problems") + " with the work unit"
		b.WriteString("A pull request must name exactly one open work unit (`Work-unit: #N` or a closing keyword) whose contract is valid, whose milestone is a valid increment and whose dependencies are all closed.\n\n")
		for _, reason := range v.Reasons {
			fmt.Fprintf(&b, "- %s\n", reason)
		}
	}
	if v.Tamper != "" {
		fmt.Fprintf(&b, "\n**Contract tampering:** %s.\n", oneLine(v.Tamper, 2000))
	}
	if !nativeBlockers {
		b.WriteString(noNativeBlockers)
	}
	r.Summary = b.String() + DocsFooter(r.Name)
	return r
}

// oneLine flattens s to one line of at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
