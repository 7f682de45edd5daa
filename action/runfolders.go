package action

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/rundir"
	"github.com/aepgate/aepgate/protocol/lint"
	"github.com/aepgate/aepgate/protocol/rundoc"
	"github.com/aepgate/aepgate/protocol/status"
)

// statusJSON is one folder's entry in the status-json output: the
// `aepgate status --json` report, or why there is none.
type statusJSON struct {
	Dir    string         `json:"dir"`
	Error  string         `json:"error,omitempty"`
	Status *status.Report `json:"status,omitempty"`
	// ItemsOmitted says status.items was left out to fit the output limit.
	ItemsOmitted bool `json:"items_omitted,omitempty"`
}

// load reads one run folder.
func (r *runner) load(f folder) (*rundoc.Run, error) {
	return rundir.Load(filepath.Join(r.ev.Workspace, filepath.FromSlash(f.rel)))
}

// lint builds aep/lint. A folder without its guide or log is not linted:
// the check fails and says which document is missing. On a pull request a
// change to the auditor's part of the folder without an auditor's approval
// is a problem too (auditorPartProblems).
func (r *runner) lint(ctx context.Context, folders []folder) checks.Run {
	var out []checks.LintFolder
	for _, f := range folders {
		lf := checks.LintFolder{Dir: f.rel, Err: f.err}
		if f.err == "" {
			run, err := r.load(f)
			if err != nil {
				lf.Err = err.Error()
			} else {
				lf.Result = lint.Check(run, lint.DefaultOptions())
				lf.Result.Problems = append(lf.Result.Problems, r.auditorPartProblems(ctx, f)...)
			}
		}
		if lf.Err != "" {
			r.problems++
		}
		r.problems += len(lf.Result.Problems)
		out = append(out, lf)
	}
	return checks.LintRun(r.ev.SHA, out)
}

// statusRun builds aep/status and records each folder's JSON report.
func (r *runner) statusRun(folders []folder) checks.Run {
	var out []checks.Progress
	for _, f := range folders {
		p, js := r.progress(f)
		if p.Err != "" {
			r.problems++
		}
		r.problems += p.Counts["CONFLICT"]
		out = append(out, p)
		r.status = append(r.status, js)
	}
	run := checks.StatusRun(r.ev.SHA, out)
	run.DetailsURL = r.ev.RunURL
	return run
}

// progress computes one folder's status; status needs only the log.
func (r *runner) progress(f folder) (checks.Progress, statusJSON) {
	if f.err != "" {
		return checks.Progress{Dir: f.rel, Err: f.err}, statusJSON{Dir: f.rel, Error: f.err}
	}
	run, err := r.load(f)
	var missing *rundir.MissingError
	if err != nil && !(errors.As(err, &missing) && !missing.Has(rundoc.LogFile)) {
		return checks.Progress{Dir: f.rel, Err: err.Error()}, statusJSON{Dir: f.rel, Error: err.Error()}
	}
	rep := status.Compute(run, f.rel)
	return toProgress(rep), statusJSON{Dir: f.rel, Status: &rep}
}

// toProgress converts a status report into the rendering's input.
func toProgress(rep status.Report) checks.Progress {
	p := checks.Progress{Dir: rep.Dir, Counts: rep.Counts}
	if rep.MostRecent != nil {
		p.MostRecent = *rep.MostRecent
	}
	byID := map[string]status.Item{}
	for _, it := range rep.Items {
		byID[it.ID] = it
	}
	for _, ph := range rep.Phases {
		pp := checks.PhaseProgress{ID: ph.ID, Weight: ph.Weight}
		if ph.Title != nil {
			pp.Title = *ph.Title
		}
		for _, it := range rep.Items {
			if it.Phase != nil && *it.Phase == ph.ID {
				pp.Total++
				if it.State == "APPROVED" {
					pp.Approved++
				}
			}
		}
		p.Phases = append(p.Phases, pp)
	}
	for _, id := range rep.Open {
		it := byID[id]
		p.Open = append(p.Open, checks.OpenItem{ID: id, State: it.State, Detail: detail(it)})
	}
	return p
}

// detail is the text status's detail for an open item.
func detail(it status.Item) string {
	switch {
	case it.Conflict != nil:
		return " (status board: " + it.Conflict.StatusBoard + ", report header: " + it.Conflict.ReportHeader + ")"
	case it.Verdict != nil && it.Report != nil:
		return " (report: " + *it.Report + ")"
	}
	return ""
}
