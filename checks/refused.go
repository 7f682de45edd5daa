package checks

import "strings"

// Refusal is why the Action judged nothing for a check run.
type Refusal struct {
	// Title is the run's one-line title.
	Title string
	// Reason says what the Action found and what it expected (Markdown).
	Reason string
	// Fix says how to change the workflow so that the check can run
	// (Markdown).
	Fix string
}

// RefusedRun renders check name at sha as refused. The conclusion is
// failure, never neutral: GitHub lets a neutral (or skipped) required check
// pass branch protection, and a check that judged nothing must not let a
// merge through. It carries no annotations.
func RefusedRun(name, sha string, rf Refusal) Run {
	var b strings.Builder
	b.WriteString("## aepgate did not judge this check\n\n")
	b.WriteString(strings.TrimSpace(rf.Reason))
	b.WriteString("\n\n**How to fix:** ")
	b.WriteString(strings.TrimSpace(rf.Fix))
	b.WriteString("\n")
	return Run{Name: name, HeadSHA: sha, ExternalID: ActionExternalID(name, sha),
		Conclusion: ConclusionFailure, Title: rf.Title, Summary: b.String() + DocsFooter(name)}
}
