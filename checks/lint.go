package checks

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/protocol/lint"
)

// LintFolder is one run folder's lint outcome.
type LintFolder struct {
	// Dir is the folder, relative to the repository root (slash-separated).
	Dir string
	// Result is lint's result; ignored when Err is set.
	Result lint.Result
	// Err says why the folder could not be linted (e.g. a missing
	// compliance-log.md); a folder that cannot be linted fails the check.
	Err string
}

// LintRun renders the aep/lint check run for the run folders at sha: one
// failure annotation per problem at its file and line, a summary table per
// folder, and failure when any folder has a problem or could not be read.
// No folders at all is neutral: there was nothing to check.
func LintRun(sha string, folders []LintFolder) Run {
	r := Run{Name: NameLint, HeadSHA: sha, ExternalID: ActionExternalID(NameLint, sha)}
	problems, broken := 0, 0
	for _, f := range folders {
		if f.Err != "" {
			broken++
			continue
		}
		problems += len(f.Result.Problems)
		r.Annotations = append(r.Annotations, LintAnnotations(f.Dir, f.Result.Problems)...)
	}
	switch {
	case len(folders) == 0:
		r.Conclusion, r.Title = ConclusionNeutral, "no run folders found"
	case problems == 0 && broken == 0:
		r.Conclusion, r.Title = ConclusionSuccess, "clean: "+plural(len(folders), "run folder", "run folders")
	default:
		r.Conclusion = ConclusionFailure
		r.Title = plural(problems, "problem", "problems") + " in " + plural(len(folders), "run folder", "run folders")
		if broken > 0 {
			r.Title += fmt.Sprintf(", %d unreadable", broken)
		}
	}
	r.Summary = lintSummary(folders) + DocsFooter(r.Name)
	return r
}

// LintAnnotations turns lint problems of the folder dir into failure
// annotations at the problem's file and line. A problem about the folder
// itself (no file or line) is put on line 1 of the folder's path.
func LintAnnotations(dir string, problems []lint.Problem) []Annotation {
	var out []Annotation
	for _, p := range problems {
		a := Annotation{
			Path:      LintPath(dir, p),
			StartLine: max(p.Line, 1),
			Level:     LevelFailure,
			Title:     strings.TrimSpace(p.Rule + " " + p.Tag),
			Message:   lintMessage(p),
		}
		a.EndLine = a.StartLine
		out = append(out, a)
	}
	return out
}

// LintPath is the repository path of a problem's file in dir.
func LintPath(dir string, p lint.Problem) string {
	if p.File == "" {
		return path.Clean(dir)
	}
	return path.Join(dir, p.File)
}

func lintMessage(p lint.Problem) string {
	msg := p.Message
	if p.ID != "" && !strings.Contains(msg, p.ID) {
		msg = p.ID + ": " + msg
	}
	if p.Excerpt != "" {
		msg += fmt.Sprintf("\n(%d times) %s", p.Count, p.Excerpt)
	}
	return msg
}

func lintSummary(folders []LintFolder) string {
	var b strings.Builder
	b.WriteString("## aepgate lint\n\n")
	if len(folders) == 0 {
		b.WriteString("No run folder matched the `dir` input, so there was nothing to lint. " +
			"Set `dir` to the folder holding `execution-guide.md` and `compliance-log.md` (globs allowed).\n")
		return b.String()
	}
	rows := make([][]string, 0, len(folders))
	for _, f := range folders {
		rows = append(rows, []string{code(f.Dir), folderResult(f)})
	}
	table(&b, []string{"Run folder", "Result"}, rows)
	for _, f := range folders {
		if f.Err != "" || len(f.Result.Problems) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n### %s\n\n", code(f.Dir))
		rows := make([][]string, 0, len(f.Result.Problems))
		for _, p := range f.Result.Problems {
			loc := LintPath(f.Dir, p)
			if p.Line > 0 {
				loc += ":" + strconv.Itoa(p.Line)
			}
			rows = append(rows, []string{p.Rule, p.Tag, p.ID, code(loc), lintMessage(p)})
		}
		table(&b, []string{"Rule", "Tag", "ID", "Where", "Problem"}, rows)
	}
	return b.String()
}

func folderResult(f LintFolder) string {
	switch {
	case f.Err != "":
		return "❌ not linted: " + f.Err
	case len(f.Result.Problems) == 0:
		return "✅ clean"
	default:
		return "❌ " + plural(len(f.Result.Problems), "problem", "problems")
	}
}
