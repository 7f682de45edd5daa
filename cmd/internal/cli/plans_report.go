package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/cmd/internal/reportjson"
	"github.com/aepgate/aepgate/internal/isolate"
	"github.com/aepgate/aepgate/protocol/plans"
)

// rerun runs the recorded verification commands of the state files changed
// in base..head (all state files when none changed), each in an isolated
// copy of the tree, and compares the exit codes. Only the commands the
// base's progress.json lists in verify_commands run (plans.SelectReruns);
// without such a list every command runs, with a warning on stderr that
// the executor chose them.
func (t *plansTarget) rerun(ctx context.Context, s streams, in plans.Input) ([]plans.Finding, error) {
	phases := slices.Sorted(maps.Keys(in.Head.States))
	changed := slices.DeleteFunc(slices.Clone(phases), func(n int) bool {
		return !slices.Contains(in.PR.Changed, in.Head.StatePath(n))
	})
	if len(changed) > 0 {
		phases = changed
	}
	var out []plans.Finding
	warned := false
	for _, n := range phases {
		st, file := in.Head.States[n], in.Head.StatePath(n)
		sel := plans.SelectReruns(in.Base.Progress, file, st)
		if sel.Unlisted && len(st.Verification) > 0 && !warned {
			fmt.Fprintf(s.err, "warning: %s at the base lists no verify_commands, so the commands re-run are the executor's own choice\n", in.Base.ProgressPath())
			warned = true
		}
		for _, c := range sel.Commands {
			fmt.Fprintf(s.err, "re-running phase %d: %s\n", n, c)
		}
		var runs []plans.Run
		if len(sel.Commands) > 0 {
			outcomes, err := isolate.Commands(ctx, t.top, sel.Commands, isolate.Options{})
			if err != nil {
				return nil, failf(2, "%v", err)
			}
			for _, o := range outcomes {
				runs = append(runs, plans.Run{ExitCode: o.ExitCode, OutputTail: lastLines(o.OutputTail, 20)})
			}
		}
		out = append(out, sel.Compare(file, st, runs)...)
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

// plansWriteText prints the findings ("file:line: rule: message"), each
// phase's derived status when the files parsed, and OK or FAIL.
func plansWriteText(s streams, head plans.Plan, findings []plans.Finding) {
	for _, f := range findings {
		if f.Rule == "schema" {
			fmt.Fprintln(s.out, f.Message)
			continue
		}
		fmt.Fprintf(s.out, "%s:%d: %s: %s\n", f.File, f.Line, f.Rule, f.Message)
	}
	if !plansUnparsed(findings) && head.Progress != nil {
		for _, ph := range head.Progress.Phases {
			fmt.Fprintf(s.out, "  phase %d  %-17s %s\n", ph.ID, head.Derived(ph.ID), ph.Title)
		}
	}
	if len(findings) > 0 {
		fmt.Fprintf(s.out, "FAIL: %d finding(s)\n", len(findings))
		return
	}
	fmt.Fprintln(s.out, "OK: every rule holds")
}

// The plans verify report (package reportjson, which aepgate mcp returns
// too).
type (
	plansJSON        = reportjson.PlansVerify
	plansPhaseJSON   = reportjson.PlansPhase
	plansFindingJSON = reportjson.PlansFinding
)

func plansWriteJSON(s streams, t *plansTarget, head plans.Plan, findings []plans.Finding) {
	out := plansJSON{Version: 1, Dir: t.dir, Base: t.base, Head: t.head, Phase: t.phase, OK: len(findings) == 0,
		Phases: []plansPhaseJSON{}, Findings: []plansFindingJSON{}}
	if head.Progress != nil {
		out.Dialect = head.Progress.Dialect
	}
	if !plansUnparsed(findings) && head.Progress != nil {
		for _, ph := range head.Progress.Phases {
			out.Phases = append(out.Phases, plansPhaseJSON{ID: ph.ID, Title: ph.Title, Status: head.Derived(ph.ID)})
		}
	}
	for _, f := range findings {
		out.Findings = append(out.Findings, plansFindingJSON{Rule: f.Rule, File: f.File, Line: f.Line, Message: f.Message})
	}
	enc := json.NewEncoder(s.out)
	enc.SetIndent("", "  ")
	_ = enc.Encode(out)
}

// plansUnparsed reports whether a file did not parse; the derived statuses
// are then not shown, since they would ignore that file.
func plansUnparsed(findings []plans.Finding) bool {
	return slices.ContainsFunc(findings, func(f plans.Finding) bool { return f.Rule == "schema" })
}
