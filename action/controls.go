package action

import (
	"context"

	"github.com/aepgate/aepgate/checks"
)

// negcontrol runs the declared negative controls on the runner host, with
// the toolchain the job's earlier steps installed, and builds
// aep/negative-controls.
// Under pull_request_target none runs and the run is refused
// (checks.RefusedRun: failure, which a required check cannot pass).
func (r *runner) negcontrol(ctx context.Context) checks.Run {
	if r.targeted() {
		r.problems++
		run := checks.RefusedRun(checks.NameNegativeControls, r.ev.SHA, targetRefusal("negative controls", "run the declared controls"))
		run.DetailsURL = r.ev.RunURL
		return run
	}
	if r.tree(ctx) != nil {
		r.problems++
		return checks.Run{Name: checks.NameNegativeControls}
	}
	controls := r.cfg.NegativeControls
	r.gha.Group("aepgate: negative controls")
	defer r.gha.EndGroup()
	results, err := r.o.RunControls(ctx, r.ev.Workspace, controls)
	outs := make([]checks.ControlOutcome, len(controls))
	for i, nc := range controls {
		o := checks.ControlOutcome{Name: nc.Name, ConfigLine: nc.Line}
		switch {
		case err != nil:
			o.Err = err.Error()
		case i < len(results):
			res := results[i]
			o.OK, o.Verdict, o.Warning, o.Transcript, o.Seconds = res.OK, res.Verdict, res.Warning, res.Transcript, res.Seconds
			if res.Err != nil {
				o.Err = res.Err.Error()
			}
		default:
			o.Err = "no result"
		}
		r.gha.Infof("%s: %s", o.Name, firstNonEmpty(o.Err, o.Verdict))
		if !o.OK {
			r.problems++
		}
		outs[i] = o
	}
	run := checks.NegControlRun(r.ev.SHA, r.in.Config, outs)
	run.DetailsURL = r.ev.RunURL
	return run
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
