package plans

import (
	"fmt"
	"slices"
)

// checkScope: a pull request touches only its own phase's state file, and
// a review file only when its author is that phase's reviewer.
func checkScope(in Input) []Finding {
	var out []Finding
	for _, f := range in.PR.Changed {
		phase, review, ok := StateFile(inside(in.Head.Dir, f))
		if !ok {
			continue
		}
		msg := ""
		switch {
		case review && in.PR.Author != in.Head.Progress.reviewer(phase):
			msg = fmt.Sprintf("only phase %d's reviewer (%s) may write its review file; this pull request is by %s",
				phase, in.Head.Progress.reviewer(phase), in.PR.Author)
		case review:
			continue
		case in.PR.Phase == 0:
			msg = "this change names no phase (branch plan/<slug>/phase-<N>), so it may touch no state file"
		case phase != in.PR.Phase:
			msg = fmt.Sprintf("a pull request of phase %d touches phase %d's state file", in.PR.Phase, phase)
		default:
			continue
		}
		out = append(out, Finding{Rule: "state-scope", File: f, Line: 1, Message: msg})
	}
	return out
}

// checkPhaseDone: no executor sets its phase to done.
func checkPhaseDone(in Input) []Finding {
	var out []Finding
	for n, s := range in.Head.States {
		if s.Status != StatusDone || !changed(in, in.Head.StatePath(n)) {
			continue
		}
		out = append(out, Finding{Rule: "phase-done", File: in.Head.StatePath(n), Line: s.Line("status"),
			Message: "an executor ends its phase at needs_review; done is derived from an approving review file"})
	}
	return out
}

// checkTaskCommits: a task newly marked done names one of the pull
// request's commits, one that changes a file and is neither the base nor
// the previous head. The previous head of a task is also the commit of the
// task done before it, so two tasks naming the same commit is refused too:
// it is what an executor records when "git commit" had nothing to commit.
func checkTaskCommits(in Input) []Finding {
	var out []Finding
	for n, s := range in.Head.States {
		file := in.Head.StatePath(n)
		if !changed(in, file) {
			continue
		}
		for i, t := range s.Tasks {
			if t.Status != TaskDone || wasDone(in.Base.States[n], t) {
				continue
			}
			msg := commitProblem(in.PR, t.Commit)
			if j := slices.IndexFunc(s.Tasks[:i], func(o TaskState) bool { return o.Commit == t.Commit }); msg == "" && j >= 0 {
				msg = fmt.Sprintf("commit %s is also task %q's commit (nothing new was committed for this task)", t.Commit, s.Tasks[j].ID)
			}
			if msg != "" {
				out = append(out, Finding{Rule: "task-commits", File: file,
					Line: s.Line(fmt.Sprintf("tasks[%d].commit", i)), Message: fmt.Sprintf("task %q: %s", t.ID, msg)})
			}
		}
	}
	return out
}

// wasDone reports whether base already recorded t as done at the same
// commit (judged by the pull request that recorded it).
func wasDone(base *State, t TaskState) bool {
	if base == nil {
		return false
	}
	i := slices.IndexFunc(base.Tasks, func(b TaskState) bool { return b.ID == t.ID })
	return i >= 0 && base.Tasks[i].Status == TaskDone && base.Tasks[i].Commit == t.Commit
}

func commitProblem(pr PR, sha string) string {
	switch {
	case sha == pr.Base:
		return fmt.Sprintf("commit %s is the base commit, not work of this pull request", sha)
	case pr.PrevHead != "" && sha == pr.PrevHead:
		return fmt.Sprintf("commit %s is the previous head (nothing was committed for this task)", sha)
	}
	i := slices.IndexFunc(pr.Commits, func(c Commit) bool { return c.SHA == sha })
	if i < 0 {
		return fmt.Sprintf("commit %s is not one of this pull request's commits", sha)
	}
	if len(pr.Commits[i].Files) == 0 {
		return fmt.Sprintf("commit %s changes no file", sha)
	}
	return ""
}
