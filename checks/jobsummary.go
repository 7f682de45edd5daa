package checks

import (
	"fmt"
	"strconv"
	"strings"
)

// Limits of workflow commands and the job summary (GitHub docs: Workflow
// commands for GitHub Actions; go-githubactions v1.3.0's AddStepSummary).
const (
	// MaxWorkflowAnnotationsPerLevel: "Caps: 10 errors + 10 warnings + 10
	// notices per step, 50 per job."
	MaxWorkflowAnnotationsPerLevel = 10

	// MaxStepSummaryBytes: "AddStepSummary … 1 MiB per step; above that the
	// upload is aborted with an error annotation." aepgate keeps 1 KiB of
	// room for its own notes.
	MaxStepSummaryBytes = 1<<20 - 1024
)

// SplitWorkflowAnnotations returns the annotations of runs that fit the
// per-step workflow-command caps (the first MaxWorkflowAnnotationsPerLevel
// of each level, in order) and the rest, which belong in the job summary.
func SplitWorkflowAnnotations(runs []Run) (shown, overflow []Annotation) {
	count := map[Level]int{}
	for _, r := range runs {
		for _, a := range Fit(r).Annotations {
			if count[a.Level] < MaxWorkflowAnnotationsPerLevel {
				count[a.Level]++
				shown = append(shown, a)
			} else {
				overflow = append(overflow, a)
			}
		}
	}
	return shown, overflow
}

// JobSummary renders the job summary: a table of the runs with their
// conclusions, each run's summary, and — when the runs could not be written
// as check runs — the notes and the annotations that did not fit as
// workflow annotations. It is cut to MaxStepSummaryBytes.
func JobSummary(runs []Run, notes []string, overflow []Annotation) string {
	var b strings.Builder
	b.WriteString("# aepgate\n\n")
	for _, n := range notes {
		b.WriteString("> " + strings.ReplaceAll(n, "\n", "\n> ") + "\n\n")
	}
	rows := make([][]string, 0, len(runs))
	for _, r := range runs {
		rows = append(rows, []string{code(r.Name), conclusionIcon(r.Conclusion) + " " + string(r.Conclusion), r.Title})
	}
	table(&b, []string{"Check", "Conclusion", "Title"}, rows)
	for _, r := range runs {
		b.WriteString("\n")
		b.WriteString(strings.Replace(r.Summary, "## ", "## "+conclusionIcon(r.Conclusion)+" ", 1))
	}
	if len(overflow) > 0 {
		fmt.Fprintf(&b, "\n## %s not shown as workflow annotations\n\n", plural(len(overflow), "annotation", "annotations"))
		rows := make([][]string, 0, len(overflow))
		for _, a := range overflow {
			rows = append(rows, []string{string(a.Level), code(a.Path + ":" + strconv.Itoa(a.StartLine)), a.Title, a.Message})
		}
		table(&b, []string{"Level", "Where", "Title", "Message"}, rows)
	}
	return CutMarkdown(b.String(), MaxStepSummaryBytes, "job summary")
}

func conclusionIcon(c Conclusion) string {
	switch c {
	case ConclusionSuccess:
		return "✅"
	case ConclusionFailure, ConclusionTimedOut, ConclusionCancelled:
		return "❌"
	case ConclusionActionRequired:
		return "⚠️"
	default:
		return "➖"
	}
}
