package plans

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// checkAttempts: a changed state file records no task with more than
// MaxAttempts fix attempts ("two fix attempts, then stop").
func checkAttempts(in Input) []Finding {
	var out []Finding
	for n, s := range changedStates(in) {
		for i, t := range s.Tasks {
			if t.Attempts > MaxAttempts {
				out = append(out, Finding{Rule: "attempts", File: in.Head.StatePath(n), Line: s.TaskLine(i, "attempts"),
					Message: fmt.Sprintf("task %q took %d fix attempts; after %d a task is recorded failed and the executor stops", t.ID, t.Attempts, MaxAttempts)})
			}
		}
	}
	return out
}

// checkBlocks: no task a failed task blocks is done on top of it, and a
// failed task that blocks others sets its phase blocked. in_progress is
// read as the moment the failure is recorded (the skill's own example
// shows it so); any later status (needs_review, done) is a finding.
func checkBlocks(in Input) []Finding {
	var out []Finding
	for n, s := range changedStates(in) {
		file := in.Head.StatePath(n)
		for i, t := range s.Tasks {
			if t.Status != TaskFailed || len(t.Blocks) == 0 {
				continue
			}
			if s.Status != StatusBlocked && s.Status != StatusInProgress {
				out = append(out, Finding{Rule: "blocks", File: file, Line: s.Line("status"),
					Message: fmt.Sprintf("task %q failed and blocks %s, so the phase is %q and the executor stops; it says %q", t.ID, strings.Join(t.Blocks, ", "), StatusBlocked, s.Status)})
			}
			for j, o := range s.Tasks {
				if o.Status == TaskDone && slices.Contains(t.Blocks, o.ID) {
					out = append(out, Finding{Rule: "blocks", File: file, Line: s.TaskLine(j, "status"),
						Message: fmt.Sprintf("task %q is done on top of task %q, which failed and blocks it (line %d)", o.ID, t.ID, s.TaskLine(i, "blocks"))})
				}
			}
		}
	}
	return out
}

// checkWorktree: a recorded worktree lies inside the repository, given as
// a clean relative path (".worktrees/phase-2", never "../repo-phase-2").
func checkWorktree(in Input) []Finding {
	var out []Finding
	for n, s := range changedStates(in) {
		w := s.Worktree
		if w == "" {
			continue
		}
		clean := path.Clean(w)
		if path.IsAbs(w) || strings.Contains(w, `\`) || clean == "." || clean == ".." || strings.HasPrefix(clean, "../") {
			out = append(out, Finding{Rule: "worktree", File: in.Head.StatePath(n), Line: s.Line("worktree"),
				Message: fmt.Sprintf("worktree %q is not inside the repository; work in .worktrees/phase-%d", w, n)})
		}
	}
	return out
}

// checkSelfReview: a changed review file is not in the name of the
// executor that claimed the phase (such a review approves nothing).
func checkSelfReview(in Input) []Finding {
	var out []Finding
	for n, r := range in.Head.Reviews {
		if !changed(in, in.Head.ReviewPath(n)) || !in.Head.selfReview(n) {
			continue
		}
		out = append(out, Finding{Rule: "self-review", File: in.Head.ReviewPath(n), Line: r.Line("reviewer"),
			Message: fmt.Sprintf("%s claimed phase %d (its state file's executor), so %s's review of it approves nothing", r.Reviewer, n, r.Reviewer)})
	}
	return out
}

// changedStates are the head's state files the pull request changes.
func changedStates(in Input) map[int]*State {
	out := map[int]*State{}
	for n, s := range in.Head.States {
		if changed(in, in.Head.StatePath(n)) {
			out[n] = s
		}
	}
	return out
}
