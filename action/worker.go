package action

import (
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/report"
)

// workerReport parses and checks the worker report in the pull request's
// body against the pull request itself and builds aep/report.
func (r *runner) workerReport() checks.Run {
	pr := r.ev.PR
	rep := report.Parse(pr.Body)
	problems := report.Check(rep, report.Facts{HeadSHA: pr.HeadSHA, Number: pr.Number, HeadBranch: pr.HeadRef})
	r.problems += len(problems)
	return checks.ReportRun(r.ev.SHA, pr.Number, rep, problems)
}
