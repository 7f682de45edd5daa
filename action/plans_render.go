package action

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/checks"
)

// plansCheckRun renders aep/plans: one failure annotation per finding on
// the offending JSON line, and each folder's derived phase statuses.
func plansCheckRun(sha string, outs []plansOutcome) checks.Run {
	run := checks.Run{Name: checks.NamePlans, HeadSHA: sha, ExternalID: checks.ActionExternalID(checks.NamePlans, sha)}
	var b strings.Builder
	b.WriteString("## aepgate plans\n\n")
	failed := 0
	for _, o := range outs {
		fmt.Fprintf(&b, "### `%s`\n\n", o.dir)
		if o.err != "" {
			failed++
			fmt.Fprintf(&b, "Could not be judged: %s\n\n", strings.ReplaceAll(o.err, "\n", " "))
			continue
		}
		plansWritePhases(&b, o)
		for _, w := range o.warnings {
			fmt.Fprintf(&b, "> [!WARNING]\n> %s\n\n", w)
		}
		for _, f := range o.findings {
			failed++
			fmt.Fprintf(&b, "- `%s:%d` **%s**: %s\n", f.File, f.Line, f.Rule, strings.ReplaceAll(f.Message, "\n", " "))
			run.Annotations = append(run.Annotations, checks.Annotation{Path: f.File, StartLine: f.Line, EndLine: f.Line,
				Level: checks.LevelFailure, Title: "plans: " + f.Rule, Message: f.Message})
		}
		if len(o.findings) == 0 {
			b.WriteString("Every rule holds.\n")
		}
		b.WriteString("\n")
	}
	switch {
	case len(outs) == 0:
		run.Conclusion, run.Title = checks.ConclusionNeutral, "no plan folder changed"
		b.WriteString("This pull request changes no file under `plans/`.\n\n")
	case failed == 0:
		run.Conclusion, run.Title = checks.ConclusionSuccess, fmt.Sprintf("%d plan folder(s) agree with the history", len(outs))
	default:
		run.Conclusion, run.Title = checks.ConclusionFailure, fmt.Sprintf("%d problem(s) in plan folders", failed)
	}
	b.WriteString("Rules and file formats: [plans](" + checks.DocsURL + "plans.md). A change to `progress.json` needs an owner's approval " +
		"through the aepgate/gates contract-change gate ([gates](" + checks.DocsURL + "gates.md)).\n")
	run.Summary = b.String() + checks.DocsFooter(checks.NamePlans)
	return run
}

// plansWritePhases writes the table of phases with their derived status.
func plansWritePhases(b *strings.Builder, o plansOutcome) {
	if o.head.Progress == nil {
		return
	}
	b.WriteString("| phase | title | status (derived) |\n|---|---|---|\n")
	for _, ph := range o.head.Progress.Phases {
		fmt.Fprintf(b, "| %d | %s | %s |\n", ph.ID, strings.ReplaceAll(ph.Title, "|", "\\|"), o.head.Derived(ph.ID))
	}
	b.WriteString("\n")
}
