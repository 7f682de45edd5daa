package main

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/internal/isolate"
	"github.com/aepgate/aepgate/protocol/plans"
)

// rerun runs the recorded verification commands of the state files changed
// in base..head (all state files when none changed), each in an isolated
// copy of the tree, and compares the exit codes.
func (t *plansTarget) rerun(ctx context.Context, s streams, in plans.Input) ([]plans.Finding, error) {
	phases := slices.Sorted(maps.Keys(in.Head.States))
	changed := slices.DeleteFunc(slices.Clone(phases), func(n int) bool {
		return !slices.Contains(in.PR.Changed, in.Head.StatePath(n))
	})
	if len(changed) > 0 {
		phases = changed
	}
	var out []plans.Finding
	for _, n := range phases {
		st := in.Head.States[n]
		if len(st.Verification) == 0 {
			continue
		}
		cmds := make([]string, len(st.Verification))
		for i, v := range st.Verification {
			cmds[i] = v.Command
			fmt.Fprintf(s.err, "re-running phase %d: %s\n", n, v.Command)
		}
		outcomes, err := isolate.Commands(ctx, t.top, cmds, isolate.Options{})
		if err != nil {
			return nil, failf(2, "%v", err)
		}
		runs := make([]plans.Run, len(outcomes))
		for i, o := range outcomes {
			runs[i] = plans.Run{ExitCode: o.ExitCode, OutputTail: lastLines(o.OutputTail, 20)}
		}
		out = append(out, plans.CompareRuns(in.Head.StatePath(n), st, runs)...)
	}
	return out, nil
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// plansWriteDerived prints each phase's status as aepgate derives it.
func plansWriteDerived(s streams, p plans.Plan) {
	if p.Progress == nil {
		return
	}
	for _, ph := range p.Progress.Phases {
		fmt.Fprintf(s.out, "  phase %d  %-17s %s\n", ph.ID, p.Derived(ph.ID), ph.Title)
	}
}

// plansReport prints the findings and returns the exit status.
func plansReport(s streams, findings []plans.Finding) error {
	for _, f := range findings {
		msg := f.Message
		if f.Rule == "schema" {
			fmt.Fprintln(s.out, msg)
			continue
		}
		fmt.Fprintf(s.out, "%s:%d: %s: %s\n", f.File, f.Line, f.Rule, msg)
	}
	if len(findings) > 0 {
		fmt.Fprintf(s.out, "FAIL: %d finding(s)\n", len(findings))
		return exitCode(1)
	}
	fmt.Fprintln(s.out, "OK: every rule holds")
	return nil
}
