package action

import (
	"context"
	"strconv"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/report"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// workerReport parses and checks the worker report in the pull request's
// body against the pull request itself — its head, branch and number, the
// work unit its body names and the files it changes — and builds
// aep/report.
func (r *runner) workerReport(ctx context.Context) checks.Run {
	pr := r.ev.PR
	rep := report.Parse(pr.Body)
	repo := r.ev.Owner + "/" + r.ev.Repo
	f := report.Facts{HeadSHA: pr.HeadSHA, Number: pr.Number, HeadBranch: pr.HeadRef,
		Repo: repo, Units: workunit.ParseRefs(pr.Body, repo)}
	problems := r.changedFiles(ctx, rep, &f)
	problems = append(problems, report.Check(rep, f)...)
	r.problems += len(problems)
	return checks.ReportRun(r.ev.SHA, pr.Number, rep, problems, report.Warnings(rep, f))
}

// changedFiles sets f.Files to the pull request's changed files when the
// report has a FILES field to compare them with. Without a token, or past
// GitHub's listing limit, FILES is not compared and the job summary says
// so; a failed read is a problem (fail closed).
func (r *runner) changedFiles(ctx context.Context, rep report.Report, f *report.Facts) []report.Problem {
	fld, ok := rep.Fields[report.FieldFiles]
	if !rep.Found || !ok {
		return nil
	}
	if r.api.Pulls == nil {
		r.notes = append(r.notes, "The report's FILES was not compared with the pull request's changed files: no token was given to list them.")
		return nil
	}
	paths, complete, err := r.api.Pulls.PullFiles(ctx, r.ev.Owner, r.ev.Repo, r.ev.PR.Number)
	switch {
	case err != nil:
		return []report.Problem{{Code: "files-unreadable", Field: report.FieldFiles, Line: fld.Line,
			Message: "the pull request's changed files could not be listed, so FILES was not compared with them: " + err.Error()}}
	case !complete:
		r.notes = append(r.notes, "The report's FILES was not compared with the pull request's changed files: GitHub lists at most the first "+
			strconv.Itoa(gh.MaxPullFiles)+" of them.")
		return nil
	}
	f.Files, f.FilesKnown = paths, true
	return nil
}
