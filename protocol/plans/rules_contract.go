package plans

import (
	"fmt"
	"slices"
	"strings"
)

// checkContract: progress.json, and a phase brief once the plan exists at
// base, change only with an owner's approval (executor-state: "never touch
// progress.json"; a shared contract — copied into every brief — that needs
// to change means stop and report, never an edit).
func checkContract(in Input) []Finding {
	if in.Base.Progress == nil || in.PR.ContractApproved {
		return nil
	}
	owner := in.Base.Progress.Owner
	if owner == "" {
		owner = "the repository's owners"
	}
	var out []Finding
	for _, f := range in.PR.Changed {
		what := ""
		if _, brief := BriefFile(inside(in.Head.Dir, f)); brief {
			what = "the phase brief " + f + " is part of the plan's contract (its tasks, files and commands)"
		} else if f == in.Head.ProgressPath() {
			what = "progress.json is the plan's contract"
		} else {
			continue
		}
		out = append(out, Finding{Rule: "contract", File: f, Line: 1, Message: fmt.Sprintf(
			"%s and changed in this pull request: it needs an owner's approval "+
				"(%s, through the aepgate/gates contract-change gate; see https://github.com/aepgate/aepgate/blob/main/docs/gates.md)", what, owner)})
	}
	return out
}

// checkTaskIDs: every task ID of the base contract is still there, in the
// same phase, and a changed state file reports only its phase's tasks.
func checkTaskIDs(in Input) []Finding {
	out := checkStateTasks(in)
	if in.Base.Progress == nil {
		return out
	}
	head := map[string]int{}
	for _, ph := range in.Head.Progress.Phases {
		for _, t := range ph.Tasks {
			head[t.ID] = ph.ID
		}
	}
	file := in.Head.ProgressPath()
	for _, ph := range in.Base.Progress.Phases {
		for _, t := range ph.Tasks {
			got, ok := head[t.ID]
			switch {
			case !ok:
				out = append(out, Finding{Rule: "task-ids", File: file, Line: phaseLine(in.Head.Progress, ph.ID),
					Message: fmt.Sprintf("task %q of phase %d was deleted or renumbered; task IDs are permanent", t.ID, ph.ID)})
			case got != ph.ID:
				out = append(out, Finding{Rule: "task-ids", File: file, Line: taskLine(in.Head.Progress, t.ID),
					Message: fmt.Sprintf("task %q moved from phase %d to phase %d; task IDs are permanent", t.ID, ph.ID, got)})
			}
		}
	}
	return out
}

// checkStateTasks: each changed state file's phase is in the contract and
// its tasks are that phase's.
func checkStateTasks(in Input) []Finding {
	var out []Finding
	for n, s := range in.Head.States {
		file := in.Head.StatePath(n)
		if !changed(in, file) {
			continue
		}
		ph := in.Head.Progress.phase(n)
		if ph == nil {
			out = append(out, Finding{Rule: "task-ids", File: file, Line: s.Line("phase"),
				Message: fmt.Sprintf("phase %d is not in progress.json", n)})
			continue
		}
		for i, t := range s.Tasks {
			if !slices.ContainsFunc(ph.Tasks, func(c Task) bool { return c.ID == t.ID }) {
				out = append(out, Finding{Rule: "task-ids", File: file, Line: s.Line(fmt.Sprintf("tasks[%d].id", i)),
					Message: fmt.Sprintf("task %q is not a task of phase %d in progress.json", t.ID, n)})
			}
		}
	}
	return out
}

// phaseLine is the line of phase id in p, or of "phases".
func phaseLine(p *Progress, id int) int {
	for i, ph := range p.Phases {
		if ph.ID == id {
			return p.Line(fmt.Sprintf("phases[%d]", i))
		}
	}
	return p.Line("phases")
}

// taskLine is the line of task id in p.
func taskLine(p *Progress, id string) int {
	for i, ph := range p.Phases {
		for j, t := range ph.Tasks {
			if t.ID == id {
				return p.Line(fmt.Sprintf("phases[%d].tasks[%d].id", i, j))
			}
		}
	}
	return 1
}

// inside returns the path of file relative to dir, or "" when outside.
func inside(dir, file string) string {
	rel, ok := strings.CutPrefix(file, dir+"/")
	if !ok {
		return ""
	}
	return rel
}
