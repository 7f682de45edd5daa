package action

import (
	"context"
	"fmt"

	"github.com/aepgate/aepgate/checks"
)

// CheckInfo is one check the Action can run: its name in the `checks`
// input, the check run it writes and when it runs without that input.
type CheckInfo struct {
	Input, Run, When string
}

// actionCheck is one check of the Action, as the App's checks table has
// one entry per check: the `checks` input's name for it, the check run it
// writes, when it runs by default (--help and docs/action.md say it), when
// it applies to this step and how it runs.
type actionCheck struct {
	// input is its name in the `checks` input; "" for aep/verify, which
	// the verify input asks for.
	input string
	// run is the check run it writes.
	run string
	// when says when it runs without the `checks` input.
	when string
	// onlyNamed: it runs only when the `checks` input names it.
	onlyNamed bool
	// applies reports whether it runs on this step, once the `checks`
	// input wants it (Inputs.wants); it reads the inputs, the event, the
	// config and the run folders, and changes nothing.
	applies func(r *runner, folders []folder) bool
	// make runs it; ok false writes no run (the job summary says why).
	make func(ctx context.Context, r *runner, folders []folder) (run checks.Run, ok bool)
}

// checkTable is every check the Action runs, in the order it makes them:
// first the checks that read the workspace (run folders, controls, their
// history), then those that read the event, then the release.
var checkTable = []actionCheck{
	{
		input: CheckLint, run: checks.NameLint, when: "when there are run folders",
		applies: func(r *runner, folders []folder) bool { return len(folders) > 0 || r.in.explicit(CheckLint) },
		make: func(ctx context.Context, r *runner, folders []folder) (checks.Run, bool) {
			return r.onTree(ctx, checks.NameLint, func() checks.Run { return r.lint(ctx, folders) }), true
		},
	},
	{
		input: CheckStatus, run: checks.NameStatus, when: "when there are run folders",
		applies: func(r *runner, folders []folder) bool { return len(folders) > 0 || r.in.explicit(CheckStatus) },
		make: func(ctx context.Context, r *runner, folders []folder) (checks.Run, bool) {
			return r.onTree(ctx, checks.NameStatus, func() checks.Run { return r.statusRun(folders) }), true
		},
	},
	{
		input: CheckNegcontrol, run: checks.NameNegativeControls, when: "when the config declares negative controls",
		applies: func(r *runner, _ []folder) bool {
			return len(r.cfg.NegativeControls) > 0 || r.in.explicit(CheckNegcontrol)
		},
		make: func(ctx context.Context, r *runner, _ []folder) (checks.Run, bool) { return r.negcontrol(ctx), true },
	},
	{
		input: CheckVerdicts, run: checks.NameVerdicts, when: "on pull requests with run folders, in a git checkout",
		applies: func(r *runner, folders []folder) bool { return len(folders) > 0 && r.ev.PR != nil },
		make: func(ctx context.Context, r *runner, folders []folder) (checks.Run, bool) {
			if r.tree(ctx) != nil {
				r.problems++
				return checks.Run{Name: checks.NameVerdicts}, true
			}
			return r.verdictsRun(ctx, folders)
		},
	},
	{
		run: checks.NameVerify, when: "when the verify input is rerun and there are run folders",
		applies: func(r *runner, folders []folder) bool { return len(folders) > 0 && r.in.Verify == VerifyRerun },
		make: func(ctx context.Context, r *runner, folders []folder) (checks.Run, bool) {
			return r.verifyRun(ctx, folders), true
		},
	},
	{
		input: CheckReport, run: checks.NameReport, when: "on pull requests (a neutral run on those that claim no unit: docs/report.md)",
		applies: func(r *runner, _ []folder) bool { return r.ev.PR != nil || r.in.explicit(CheckReport) },
		make: func(ctx context.Context, r *runner, _ []folder) (checks.Run, bool) {
			if r.ev.PR == nil {
				r.notes = append(r.notes, fmt.Sprintf("The report check applies to pull requests only; this is a %s event.", r.ev.Name))
				return checks.Run{}, false
			}
			return r.workerReport(ctx), true
		},
	},
	{
		input: CheckPlans, run: checks.NamePlans, when: "on pull requests that change plans/",
		applies: func(r *runner, _ []folder) bool { return r.ev.PR != nil || r.in.explicit(CheckPlans) },
		make:    func(ctx context.Context, r *runner, _ []folder) (checks.Run, bool) { return r.plansRun(ctx) },
	},
	{
		input: CheckRelease, run: checks.NameRelease, when: "only when named, on the tagged commit", onlyNamed: true,
		applies: func(*runner, []folder) bool { return true },
		make:    func(ctx context.Context, r *runner, _ []folder) (checks.Run, bool) { return r.releaseRun(ctx), true },
	},
}

// runChecks makes the run of every check of checkTable that the `checks`
// input wants and that applies, in the table's order.
func (r *runner) runChecks(ctx context.Context, folders []folder) []checks.Run {
	var runs []checks.Run
	for _, c := range checkTable {
		if c.input != "" && !r.in.wants(c) || !c.applies(r, folders) {
			continue
		}
		if run, ok := c.make(ctx, r, folders); ok {
			runs = append(runs, run)
		}
	}
	return runs
}

// namedCheck returns the check the `checks` input calls name.
func namedCheck(name string) (actionCheck, bool) {
	for _, c := range checkTable {
		if c.input != "" && c.input == name {
			return c, true
		}
	}
	return actionCheck{}, false
}

// checkNames are the `checks` input's names, in checkTable's order.
func checkNames() []string {
	var out []string
	for _, c := range checkTable {
		if c.input != "" {
			out = append(out, c.input)
		}
	}
	return out
}

// Checks lists every check the `checks` input names, in the order the
// Action makes them (checkTable), with its check run and when it runs
// without that input. The command's --help and docs/action.md are held to
// this table.
func Checks() []CheckInfo {
	var out []CheckInfo
	for _, c := range checkTable {
		if c.input != "" {
			out = append(out, CheckInfo{Input: c.input, Run: c.run, When: c.when})
		}
	}
	return out
}
