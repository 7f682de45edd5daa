package checks

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/gitsha"
	"github.com/aepgate/aepgate/protocol/report"
)

// ReportPath is the annotation path for problems in pull request n's body.
// The body is not a file in the repository; GitHub lists such annotations
// on the check run's page under this name.
func ReportPath(n int) string { return fmt.Sprintf("PR #%d body", n) }

// ReportRun renders the aep/report check run for the worker report in pull
// request n's body: each problem becomes a failure annotation and each
// warning (report.Warnings) a warning annotation at its body line, and the
// summary tables them and the fields found. Problems fail the check;
// warnings do not. A valid report that says needs-rework or blocked is
// neutral (the worker itself says the attempt is not done); a valid "done"
// report succeeds.
func ReportRun(sha string, n int, r report.Report, problems, warnings []report.Problem) Run {
	run := Run{Name: NameReport, HeadSHA: sha, ExternalID: ActionExternalID(NameReport, sha)}
	run.Annotations = append(reportAnnotations(n, problems, LevelFailure), reportAnnotations(n, warnings, LevelWarning)...)
	switch {
	case len(problems) > 0:
		run.Conclusion = ConclusionFailure
		run.Title = "worker report: " + plural(len(problems), "problem", "problems")
	case r.Status == report.StatusDone:
		run.Conclusion, run.Title = ConclusionSuccess, "worker report: done, pushed at "+gitsha.Short(sha)
	default:
		run.Conclusion, run.Title = ConclusionNeutral, "worker report: "+string(r.Status)
	}
	if len(warnings) > 0 {
		run.Title += ", " + plural(len(warnings), "warning", "warnings")
	}
	run.Summary = reportSummary(n, r, problems, warnings) + DocsFooter(NameReport)
	return run
}

// ReportNotRequiredRun renders aep/report for pull request n when the
// report rule does not apply to it (report.Applies): neutral, saying why,
// with the rule's keys for a repository that wants reports on more pull
// requests.
func ReportNotRequiredRun(sha string, n int, reason string) Run {
	var b strings.Builder
	fmt.Fprintf(&b, "## Worker report in pull request #%d\n\n%s\n\n", n, reason)
	b.WriteString("A pull request needs the worker's report when it names a work unit (a line `Work-unit: #N`, a closing keyword, or a report of its own), " +
		"or when `.github/aepgate.yml`'s `report.required_for` lists one of its labels or paths; " +
		"pull requests by bot accounts and those `report.skip` lists are exempt unless they name a unit " +
		"([when a report is required](" + DocsURL + "report.md#when-a-report-is-required)).\n")
	return Run{Name: NameReport, HeadSHA: sha, ExternalID: ActionExternalID(NameReport, sha), Conclusion: ConclusionNeutral,
		Title: "worker report: not required", Summary: b.String() + DocsFooter(NameReport)}
}

// reportAnnotations places each problem on its body line at level.
func reportAnnotations(n int, ps []report.Problem, level Level) []Annotation {
	var out []Annotation
	for _, p := range ps {
		line := max(p.Line, 1)
		out = append(out, Annotation{
			Path: ReportPath(n), StartLine: line, EndLine: line, Level: level,
			Title: strings.TrimSpace("worker report: " + p.Code), Message: p.Message,
		})
	}
	return out
}

func reportSummary(n int, r report.Report, problems, warnings []report.Problem) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Worker report in pull request #%d\n\n", n)
	problemTable(&b, "Problem", problems)
	problemTable(&b, "Warning", warnings)
	if !r.Found {
		b.WriteString("The body holds no report. The worker's handoff reads as below ([the report format](" + DocsURL + "report.md), with a template to copy):\n\n")
		fenced(&b, "text", "STATUS: done | needs-rework | blocked\nWORK-UNIT: #<issue>\nATTEMPT: <n>\nBRANCH: <branch>\nPR: <url or none>\nDONE:\n- <verified fact>\nNOT DONE / OPEN: <items or none>\nFILES:\n- <path>\nVERIFY:\n- `<command>` → <exact result>\nPRESERVATION: clean + pushed at <full head SHA>\n")
		return b.String()
	}
	rows := make([][]string, 0, len(report.Required))
	for _, name := range report.Required {
		f, ok := r.Fields[name]
		val := "❌ missing"
		if ok {
			val = strings.Join(f.Values(), "\n")
		}
		rows = append(rows, []string{"**" + name + "**", val})
	}
	table(&b, []string{"Field", "Value"}, rows)
	return b.String()
}

// problemTable tables ps (where, field, message) under a column named kind.
func problemTable(b *strings.Builder, kind string, ps []report.Problem) {
	if len(ps) == 0 {
		return
	}
	rows := make([][]string, 0, len(ps))
	for _, p := range ps {
		where := "–"
		if p.Line > 0 {
			where = fmt.Sprintf("line %d", p.Line)
		}
		rows = append(rows, []string{where, p.Field, p.Message})
	}
	table(b, []string{"Where", "Field", kind}, rows)
	b.WriteString("\n")
}
