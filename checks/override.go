package checks

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/gitsha"
)

// Override is an owner's override in force on a check at one head
// (docs/merge.md): who made it, why, and where.
type Override struct {
	Owner, Reason string
	// URL is the override's comment; PR the pull request it is on.
	URL string
	PR  int
}

// OverriddenTitle is the title of a check an owner overrode.
func OverriddenTitle(o Override) string {
	return "overridden by " + o.Owner + ": " + o.Reason
}

// Overridden is run as the owner's override shows it: success, titled
// "overridden by <owner>: <reason>", its summary saying what the check
// alone concludes (with what it showed, annotations kept) and what the
// merge owes: a retro-audit at the merge commit, or an owner's waiver. A
// run that succeeds alone is returned as it is.
func Overridden(run Run, o Override) Run {
	if run.Conclusion == ConclusionSuccess {
		return run
	}
	would := run.Conclusion
	var b strings.Builder
	fmt.Fprintf(&b, "**Overridden.** `%s` overrode `%s` for head `%s` of #%d ([the override](%s)):\n\n", o.Owner, run.Name, gitsha.Short(run.HeadSHA), o.PR, o.URL)
	fmt.Fprintf(&b, "> %s\n\n", strings.ReplaceAll(o.Reason, "\n", " "))
	fmt.Fprintf(&b, "Judged alone, this check concludes **%s**: %s.\n\n", string(would), strings.TrimSuffix(run.Title, "."))
	b.WriteString("A merge of this head owes a **retro-audit**: its work unit is not done and gets no certificate until an " +
		"independent audit passes at the merge commit, or an owner waives it with `/aep waive <reason>` on the merged pull request. " +
		"A new push ends the override; an edit or deletion of its comment cancels it; a HOLD suspends it.\n\n")
	b.WriteString("### What the check alone shows\n\n")
	b.WriteString(strings.TrimLeft(run.Summary, "\n"))
	run.Conclusion, run.Title, run.Summary, run.Actions, run.DetailsURL = ConclusionSuccess, OverriddenTitle(o), b.String(), nil, ""
	return run
}
