package checks

import (
	"fmt"
	"strings"
	"time"
)

// VerifyFolder is one run folder's re-run of its DONE tasks' Verify
// commands (protocol/reverify), as the Action observed it.
type VerifyFolder struct {
	// Dir is the folder; Log its compliance log's repository path.
	Dir, Log string
	// Err says why the folder could not be re-run; empty when it was.
	Err   string
	Tasks []VerifyTask
	// Skipped are DONE tasks not re-run, with why.
	Skipped []VerifyTask
	// Changed are DONE tasks whose Verify command the pull request changed
	// (or added): never run from the head's text, each a failure with its
	// Problem saying so (reverify.FromBase).
	Changed []VerifyTask
}

// VerifyTask is one task's re-run. Problem is its false green (both last
// lines shown), empty when the re-run reproduced the evidence.
type VerifyTask struct {
	ID       string
	LogLine  int
	ExitCode int
	Took     time.Duration
	Problem  string
}

// VerifyRun renders aep/verify on sha: failure with an annotation on the
// DONE report's line for each false green, or a folder not re-run;
// success when every DONE task reproduced its evidence; neutral when no
// DONE task has a Verify command.
func VerifyRun(sha string, folders []VerifyFolder) Run {
	r := Run{Name: NameVerify, HeadSHA: sha, ExternalID: ActionExternalID(NameVerify, sha)}
	ran, bad, changed := 0, 0, false
	var b strings.Builder
	b.WriteString("## aepgate verify --rerun\n\n")
	for _, f := range folders {
		fmt.Fprintf(&b, "### %s\n\n", code(f.Dir))
		if f.Err != "" {
			bad++
			fmt.Fprintf(&b, "Not re-run: %s\n\n", escapeHTML(f.Err))
			continue
		}
		rows := make([][]string, 0, len(f.Tasks)+len(f.Changed)+len(f.Skipped))
		for _, t := range f.Tasks {
			ran++
			result := "reproduced"
			if t.Problem != "" {
				bad++
				result = "**false green**"
				r.Annotations = append(r.Annotations, verifyAnnotation(f, t, "false green"))
			}
			rows = append(rows, []string{code(t.ID), result, fmt.Sprint(t.ExitCode), fmt.Sprintf("%.1f s", t.Took.Seconds())})
		}
		for _, t := range f.Changed {
			bad, changed, r.Annotations = bad+1, true, append(r.Annotations, verifyAnnotation(f, t, "Verify command changed"))
			rows = append(rows, []string{code(t.ID), "**Verify command changed on this pull request**: not re-run from the head's text", "–", "–"})
		}
		for _, t := range f.Skipped {
			rows = append(rows, []string{code(t.ID), "not re-run: " + escapeHTML(t.Problem), "–", "–"})
		}
		if len(rows) == 0 {
			b.WriteString("No task is DONE.\n\n")
			continue
		}
		table(&b, []string{"Task", "Result", "Exit", "Time"}, rows)
		b.WriteString("\n")
	}
	b.WriteString(verifyFooter(changed))
	switch {
	case bad > 0 && changed:
		r.Conclusion, r.Title = ConclusionFailure, plural(bad, "false green, changed Verify command or folder not re-run", "false greens, changed Verify commands or folders not re-run")
	case bad > 0:
		r.Conclusion, r.Title = ConclusionFailure, plural(bad, "false green or folder not re-run", "false greens or folders not re-run")
	case ran == 0:
		r.Conclusion, r.Title = ConclusionNeutral, "no DONE task with a Verify command"
	default:
		r.Conclusion, r.Title = ConclusionSuccess, plural(ran, "DONE task reproduced", "DONE tasks reproduced")
	}
	r.Summary = b.String()
	return r
}

// verifyAnnotation is task t's failure, annotated on its DONE report.
func verifyAnnotation(f VerifyFolder, t VerifyTask, what string) Annotation {
	return Annotation{Path: f.Log, StartLine: t.LogLine, EndLine: t.LogLine, Level: LevelFailure, Title: t.ID + ": " + what, Message: t.Problem}
}

// verifyFooter says how the commands ran, and where they came from when a
// task's command was changed.
func verifyFooter(changed bool) string {
	s := "Each DONE task's **Verify:** command ran in its own isolated copy of the workspace, without the job's token, and was compared with the output pasted under **Verify output:** (a non-zero exit, or output without the pasted last line, is a false green).\n"
	if changed {
		s += "\nOn a pull request the commands are the ones the base commit's execution guide states: the guide is the auditor's, so a command the pull request changed or added is not run until an auditor's change to the guide reaches the base.\n"
	}
	return s
}
