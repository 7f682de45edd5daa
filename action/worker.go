package action

import (
	"context"
	"strconv"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/report"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// workerReport builds aep/report. It first asks report.Applies whether the
// pull request must carry a worker report at all (it names a work unit, or
// the config's report.required_for says so, and no skip rule exempts it);
// when not, the run is neutral and says why. Otherwise it parses and checks
// the report in the body against the pull request itself — its head,
// branch and number, the work unit its body names and the files it
// changes.
func (r *runner) workerReport(ctx context.Context) checks.Run {
	pr := r.ev.PR
	repo := r.ev.Owner + "/" + r.ev.Repo
	rep := report.Parse(pr.Body)
	subject := report.Subject{Body: pr.Body, Repo: repo, Author: pr.Author, AuthorType: pr.AuthorType, Labels: pr.Labels}
	if readsPaths(r.cfg.Report) {
		subject.Files, subject.FilesKnown = r.scopeFiles(ctx)
	}
	scope := report.Applies(r.cfg.Report, subject)
	if !scope.Required {
		return checks.ReportNotRequiredRun(r.ev.SHA, pr.Number, scope.Reason)
	}
	f := report.Facts{HeadSHA: pr.HeadSHA, Number: pr.Number, HeadBranch: pr.HeadRef,
		Repo: repo, Units: workunit.ParseRefs(pr.Body, repo)}
	problems := r.changedFiles(ctx, rep, &f)
	problems = append(problems, report.Check(rep, f)...)
	r.problems += len(problems)
	run := checks.ReportRun(r.ev.SHA, pr.Number, rep, problems, report.Warnings(rep, f))
	r.notes = append(r.notes, "Worker report: "+scope.Reason+".")
	return run
}

// readsPaths reports whether the report rules look at changed files.
func readsPaths(c config.Report) bool {
	return len(c.RequiredFor.Paths) > 0 || len(c.Skip.Paths) > 0
}

// scopeFiles lists the pull request's changed files for the report rules;
// known is false without a token, past GitHub's listing limit or when the
// listing fails (then no skip path applies and required paths fail closed;
// the job summary says which).
func (r *runner) scopeFiles(ctx context.Context) (paths []string, known bool) {
	if r.api.Pulls == nil {
		r.notes = append(r.notes, "The report rules' paths were judged without the pull request's changed files: no token was given to list them.")
		return nil, false
	}
	paths, complete, err := r.pullFiles(ctx)
	switch {
	case err != nil:
		r.notes = append(r.notes, "The report rules' paths were judged without the pull request's changed files, which could not be listed: "+err.Error())
		return nil, false
	case !complete:
		r.notes = append(r.notes, "The report rules' paths were judged without the pull request's changed files: GitHub lists at most the first "+
			strconv.Itoa(gh.MaxPullFiles)+" of them.")
		return nil, false
	}
	return paths, true
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
	paths, complete, err := r.pullFiles(ctx)
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

// pullFiles lists the pull request's changed files once per step.
func (r *runner) pullFiles(ctx context.Context) ([]string, bool, error) {
	if !r.files.read {
		r.files.read = true
		r.files.paths, r.files.complete, r.files.err = r.api.Pulls.PullFiles(ctx, r.ev.Owner, r.ev.Repo, r.ev.PR.Number)
	}
	return r.files.paths, r.files.complete, r.files.err
}
