package plans

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
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
		case review && in.Head.Progress.reviewer(phase) == "":
			msg = fmt.Sprintf("only phase %d's reviewer may write its review file, and progress.json (the Executor skill's dialect) names no owner; "+
				"name the plan's owner (plans verify --owner)", phase)
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
// request's commits (a full SHA, or an abbreviation matching exactly one of
// them), one that changes a file and is neither the base nor the previous
// head. The previous head of a task is also the commit of the task done
// before it, so two tasks naming the same commit is refused too: it is
// what an executor records when "git commit" had nothing to commit.
func checkTaskCommits(in Input) []Finding {
	var out []Finding
	for n, s := range in.Head.States {
		file := in.Head.StatePath(n)
		if !changed(in, file) {
			continue
		}
		seen := map[string]string{} // resolved SHA → the task that named it
		for i, t := range s.Tasks {
			if t.Status != TaskDone {
				continue
			}
			full, msg := commitProblem(in.PR, t.Commit)
			if first, dup := seen[full]; msg == "" && dup {
				msg = fmt.Sprintf("commit %s is also task %q's commit (nothing new was committed for this task)", t.Commit, first)
			}
			if full != "" {
				seen[full] = cmp.Or(seen[full], t.ID)
			}
			if msg != "" && !wasDone(in.Base.States[n], t) {
				out = append(out, Finding{Rule: "task-commits", File: file,
					Line: s.TaskLine(i, "commit"), Message: fmt.Sprintf("task %q: %s", t.ID, msg)})
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

// commitProblem resolves sha (full or abbreviated) to one of pr's commits
// and says what is wrong with it as a task's commit; full is the resolved
// SHA ("" when it resolves to none).
func commitProblem(pr PR, sha string) (full, msg string) {
	switch {
	case prefixOf(sha, pr.Base):
		return pr.Base, fmt.Sprintf("commit %s is the base commit, not work of this pull request", sha)
	case pr.PrevHead != "" && prefixOf(sha, pr.PrevHead):
		return pr.PrevHead, fmt.Sprintf("commit %s is the previous head (nothing was committed for this task)", sha)
	}
	var hits []Commit
	for _, c := range pr.Commits {
		if prefixOf(sha, c.SHA) {
			hits = append(hits, c)
		}
	}
	switch {
	case len(hits) == 0:
		return "", fmt.Sprintf("commit %s is not one of this pull request's commits", sha)
	case len(hits) > 1:
		return "", fmt.Sprintf("commit %s is ambiguous: it abbreviates %d of this pull request's commits (%s, %s, …); write more digits",
			sha, len(hits), hits[0].SHA, hits[1].SHA)
	case len(hits[0].Files) == 0:
		return hits[0].SHA, fmt.Sprintf("commit %s changes no file", sha)
	}
	return hits[0].SHA, ""
}

// prefixOf reports whether abbrev (7 or more hex digits) abbreviates sha.
func prefixOf(abbrev, sha string) bool {
	return len(abbrev) >= 7 && sha != "" && strings.HasPrefix(strings.ToLower(sha), abbrev)
}
