package checks

import (
	"fmt"
	"strings"
)

// VerdictsFolder is one run folder's compliance log judged by
// protocol/compliance: how many verdict lines it holds and the refused ones.
type VerdictsFolder struct {
	// Dir is the folder; Log its compliance log's repository path.
	Dir, Log string
	// Err says why the folder could not be judged; empty when it was.
	Err      string
	Verdicts int
	Refused  []VerdictRefusal
}

// VerdictRefusal is one verdict line a rule refused.
type VerdictRefusal struct {
	Rule, Message string
	Line          int
}

// VerdictsRun renders aep/verdicts on sha: failure with an annotation on
// each refused verdict line (or a folder that could not be judged);
// neutral, saying why, when the base config lists no auditors; success
// when every verdict line was introduced by a commit signed by a listed
// auditor who did not report the task.
func VerdictsRun(sha string, folders []VerdictsFolder, neutral string) Run {
	r := Run{Name: NameVerdicts, HeadSHA: sha, ExternalID: ActionExternalID(NameVerdicts, sha)}
	var b strings.Builder
	b.WriteString("## aepgate verdicts\n\nA verdict (APPROVED, CONDITIONAL, REJECTED) belongs to the auditor alone: each verdict line of the compliance log must have been introduced (git blame at the head) by a commit whose signature GitHub verified for a login in the base branch's `auditors` (or a member of a team listed there), and not by the executor who reported the task. A commit's author e-mail never counts.\n\n")
	if neutral != "" {
		fmt.Fprintf(&b, "**Not judged:** %s.\n", escapeHTML(neutral))
		r.Conclusion, r.Title, r.Summary = ConclusionNeutral, "no auditors list: verdicts not judged", b.String()
		return r
	}
	total, bad, unjudged := 0, 0, 0
	rows := make([][]string, 0, len(folders))
	for _, f := range folders {
		if f.Err != "" {
			unjudged++
			rows = append(rows, []string{code(f.Dir), "–", "not judged: " + escapeHTML(f.Err)})
			continue
		}
		total += f.Verdicts
		bad += len(f.Refused)
		result := "every verdict by an auditor"
		if len(f.Refused) > 0 {
			result = plural(len(f.Refused), "verdict refused", "verdicts refused")
		}
		rows = append(rows, []string{code(f.Dir), fmt.Sprint(f.Verdicts), result})
		for _, v := range f.Refused {
			r.Annotations = append(r.Annotations, Annotation{Path: f.Log, StartLine: v.Line, EndLine: v.Line,
				Level: LevelFailure, Title: "verdict not by an auditor (" + v.Rule + ")", Message: v.Message})
		}
	}
	table(&b, []string{"Run folder", "Verdict lines", "Result"}, rows)
	switch {
	case bad > 0:
		r.Conclusion, r.Title = ConclusionFailure, plural(bad, "verdict not by an auditor", "verdicts not by an auditor")
	case unjudged > 0:
		r.Conclusion, r.Title = ConclusionFailure, plural(unjudged, "compliance log not judged", "compliance logs not judged")
	default:
		r.Conclusion, r.Title = ConclusionSuccess, plural(total, "verdict line by an auditor", "verdict lines by auditors")
	}
	r.Summary = b.String()
	return r
}
