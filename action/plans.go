package action

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/checks"
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
// changes, from its history between the event's base and head (the
// workspace's git when it holds it, else GitHub's); no folders when there
// is no pull request to compare.
func (r *runner) plansTouched(ctx context.Context) (src PlanHistory, pr plans.PR, dirs []string, err error) {
	if r.ev.PR == nil || r.ev.PR.BaseSHA == "" {
		return nil, pr, nil, nil
	}
	if src, err = r.planHistory(ctx); err != nil {
		return nil, pr, nil, err
	}
	commits, changed, err := src.History(ctx, r.ev.PR.BaseSHA, r.ev.PR.HeadSHA)
	if err != nil {
		return nil, pr, nil, err
	}
	pr = plans.PR{Author: r.ev.PR.Author, Base: r.ev.PR.BaseSHA, PrevHead: r.ev.PR.Before, Commits: commits, Changed: changed}
	for _, f := range changed {
		parts := strings.SplitN(f, "/", 3)
		if len(parts) == 3 && parts[0] == "plans" && !slices.Contains(dirs, "plans/"+parts[1]) {
			dirs = append(dirs, "plans/"+parts[1])
		}
	}
	return src, pr, dirs, nil
}

// plansApplies reports whether aep/plans runs: the check was named, or
// the pull request changes a plan folder. When its history cannot be read
// at all, it runs (and fails, saying which input is missing) unless the
// workspace holds no plan folder, as a pull request that adds or changes
// one would leave there (one that deletes every plan folder then goes
// unjudged); the job summary then says it did not run.
func (r *runner) plansApplies(ctx context.Context, dirs []string, err error) bool {
	switch {
	case r.in.explicit(CheckPlans):
		return true
	case isNotRepository(err):
		r.notes = append(r.notes, "The plans check needs a git checkout of the pull request or a token to read its history from GitHub; the workspace is not one and no token was given, so aep/plans did not run.")
		return false
	case errors.Is(err, errNoHistory) && !r.workspacePlans(ctx):
		r.notes = append(r.notes, "The workspace holds no plan folder (plans/<slug>/progress.json), so aep/plans did not run; its history could not be read to tell more: "+err.Error())
		return false
	}
	return err != nil || len(dirs) > 0
}

// workspacePlans reports whether the workspace's HEAD holds a plan folder;
// true when that cannot be read.
func (r *runner) workspacePlans(ctx context.Context) bool {
	repo, err := plangit.Open(ctx, r.ev.Workspace)
	if err != nil {
		return true
	}
	dirs, err := repo.Folders(ctx, "HEAD")
	return err != nil || len(dirs) > 0
}

// plansRun builds aep/plans; ok is false when it does not apply
// (plansApplies).
func (r *runner) plansRun(ctx context.Context) (run checks.Run, ok bool) {
	repo, pr, dirs, err := r.plansTouched(ctx)
	if !r.plansApplies(ctx, dirs, err) {
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
func (r *runner) plansFolder(ctx context.Context, repo PlanHistory, pr plans.PR, dir string) plansOutcome {
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
