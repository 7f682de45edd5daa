package action

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gitobj"
	"github.com/aepgate/aepgate/internal/isolate"
	"github.com/aepgate/aepgate/internal/plangit"
	"github.com/aepgate/aepgate/protocol/plans"
)

// plansOutcome is what the plans check found in one folder.
type plansOutcome struct {
	dir      string
	head     plans.Plan
	findings []plans.Finding
	err      string   // the folder could not be judged
	warnings []string // said in the summary, failing nothing
}

// plansTouched lists the plan folders (plans/<slug>) the pull request
// changes, from the workspace's git history between the event's base and
// head; ok is false when there is no pull request to compare.
func (r *runner) plansTouched(ctx context.Context) (repo *plangit.Repo, pr plans.PR, dirs []string, err error) {
	if r.ev.PR == nil || r.ev.PR.BaseSHA == "" {
		return nil, pr, nil, nil
	}
	if repo, err = plangit.Open(ctx, r.ev.Workspace); err != nil {
		return nil, pr, nil, err
	}
	commits, changed, err := repo.History(ctx, r.ev.PR.BaseSHA, r.ev.PR.HeadSHA)
	if err != nil {
		return nil, pr, nil, fmt.Errorf("%w (check out the full history: actions/checkout with fetch-depth: 0)", err)
	}
	pr = plans.PR{Author: r.ev.PR.Author, Base: r.ev.PR.BaseSHA, PrevHead: r.ev.PR.Before, Commits: commits, Changed: changed}
	for _, f := range changed {
		parts := strings.SplitN(f, "/", 3)
		if len(parts) == 3 && parts[0] == "plans" && !slices.Contains(dirs, "plans/"+parts[1]) {
			dirs = append(dirs, "plans/"+parts[1])
		}
	}
	return repo, pr, dirs, nil
}

// plansRun builds aep/plans; ok is false when the pull request touches no
// plan folder and the check was not named.
func (r *runner) plansRun(ctx context.Context) (run checks.Run, ok bool) {
	repo, pr, dirs, err := r.plansTouched(ctx)
	if errors.Is(err, gitobj.ErrNotRepository) && !r.in.explicit(CheckPlans) {
		r.notes = append(r.notes, "The plans check needs a git checkout of the pull request (actions/checkout with fetch-depth: 0); the workspace is not one, so aep/plans did not run.")
		return run, false
	}
	if err == nil && len(dirs) == 0 && !r.in.explicit(CheckPlans) {
		return run, false
	}
	r.gha.Group("aepgate: plans")
	defer r.gha.EndGroup()
	var outs []plansOutcome
	if err != nil {
		outs = []plansOutcome{{dir: "plans", err: err.Error()}}
	}
	for _, dir := range dirs {
		outs = append(outs, r.plansFolder(ctx, repo, pr, dir))
	}
	for _, o := range outs {
		r.problems += len(o.findings)
		if o.err != "" {
			r.problems++
		}
	}
	run = plansCheckRun(r.ev.SHA, outs)
	run.DetailsURL = r.ev.RunURL
	return run, true
}

// plansFolder judges one folder: the rules on base vs head, then the
// re-run of its recorded commands when the rerun input is true.
func (r *runner) plansFolder(ctx context.Context, repo *plangit.Repo, pr plans.PR, dir string) plansOutcome {
	o := plansOutcome{dir: dir}
	if slug, n, ok := plans.PhaseFromBranch(r.ev.PR.HeadRef); ok && "plans/"+slug == dir {
		pr.Phase = n
	}
	in := plans.Input{PR: pr}
	for _, end := range []struct {
		sha  string
		plan *plans.Plan
	}{{pr.Base, &in.Base}, {r.ev.PR.HeadSHA, &in.Head}} {
		p, err := repo.Load(ctx, end.sha, dir)
		var es plans.Errors
		switch {
		case errors.As(err, &es):
			for _, e := range es {
				o.findings = append(o.findings, plans.Finding{Rule: "schema", File: e.File, Line: max(e.Line, 1), Message: e.Message})
			}
		case err != nil:
			o.err = err.Error()
			return o
		}
		*end.plan = p
	}
	o.head = in.Head
	if len(o.findings) > 0 {
		return o
	}
	o.findings = plans.Check(in, plans.Rules())
	if r.in.Rerun {
		o.findings = append(o.findings, r.plansRerun(ctx, in, &o)...)
	}
	return o
}

// plansRerun re-runs the recorded verification commands of the state
// files this pull request changes that the base's contract lists
// (plans.SelectReruns), each in an isolated copy of the workspace. Under
// pull_request_target nothing runs and each such file gets a finding;
// when the workspace is not the commit judged nothing runs (the run is
// refused).
func (r *runner) plansRerun(ctx context.Context, in plans.Input, o *plansOutcome) []plans.Finding {
	var out []plans.Finding
	for _, n := range slices.Sorted(maps.Keys(in.Head.States)) {
		st, file := in.Head.States[n], in.Head.StatePath(n)
		if !slices.Contains(in.PR.Changed, file) || len(st.Verification) == 0 {
			continue
		}
		if r.targeted() {
			out = append(out, plans.Finding{Rule: "rerun", File: file, Line: st.Line("verification"),
				Message: "not re-run: this is a pull_request_target run, with the base repository's token and secrets, " +
					"and aepgate runs no command a pull request controls there; re-run from a pull_request workflow"})
			continue
		}
		if r.tree(ctx) != nil {
			return nil
		}
		out = append(out, r.rerunState(ctx, in, file, st, o)...)
	}
	return out
}

// rerunState re-runs one state file's allowed commands and compares them.
func (r *runner) rerunState(ctx context.Context, in plans.Input, file string, st *plans.State, o *plansOutcome) []plans.Finding {
	sel := plans.SelectReruns(in.Base.Progress, file, st)
	if sel.Unlisted {
		w := fmt.Sprintf("%s at the base lists no `verify_commands`, so the commands re-run for %s are the executor's own choice.", in.Base.ProgressPath(), file)
		o.warnings = append(o.warnings, w)
		r.notes = append(r.notes, "aep/plans: "+w)
	}
	var runs []plans.Run
	if len(sel.Commands) > 0 {
		outcomes, err := r.o.RunCommands(ctx, r.ev.Workspace, sel.Commands)
		if err != nil {
			return append(sel.Refused, plans.Finding{Rule: "rerun", File: file, Line: 1, Message: "could not re-run: " + err.Error()})
		}
		for _, oc := range outcomes {
			runs = append(runs, plans.Run{ExitCode: oc.ExitCode, OutputTail: oc.OutputTail})
		}
	}
	return sel.Compare(file, st, runs)
}

// defaultRunCommands runs commands with isolate.Commands.
func defaultRunCommands(ctx context.Context, root string, cmds []string) ([]isolate.Outcome, error) {
	return isolate.Commands(ctx, root, cmds, isolate.Options{})
}
