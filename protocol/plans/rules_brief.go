package plans

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/protocol/config"
)

// doneTask is a task a changed state file newly marks done, with the index
// of its commit in the pull request's commits.
type doneTask struct {
	phase int
	state *State
	i     int
	at    int
}

func (d doneTask) task() TaskState { return d.state.Tasks[d.i] }

// newlyDone lists the tasks the changed state files newly mark done whose
// commit resolves to exactly one of the pull request's commits (a commit
// that does not is task-commits' finding), by phase then file order.
func newlyDone(in Input) []doneTask {
	states := changedStates(in)
	var out []doneTask
	for _, n := range slices.Sorted(maps.Keys(states)) {
		s := states[n]
		for i, t := range s.Tasks {
			if t.Status != TaskDone || wasDone(in.Base.States[n], t) {
				continue
			}
			if at := commitIndex(in.PR, t.Commit); at >= 0 {
				out = append(out, doneTask{phase: n, state: s, i: i, at: at})
			}
		}
	}
	return out
}

// commitIndex is the index in pr.Commits of the one commit sha (full or
// abbreviated) names; -1 when it names none or several.
func commitIndex(pr PR, sha string) int {
	at := -1
	for i, c := range pr.Commits {
		if prefixOf(sha, c.SHA) {
			if at >= 0 {
				return -1
			}
			at = i
		}
	}
	return at
}

// briefOf is the brief that judges phase n: the base's when there is one
// (a pull request cannot widen the list that judges it; changing a brief
// is a contract finding), else the head's.
func briefOf(in Input, n int) *Brief {
	if b := in.Base.Briefs[n]; b != nil {
		return b
	}
	return in.Head.Briefs[n]
}

// checkTaskFiles: a task's commit changes only the files its brief lists
// (executor-state: "Only the changes the task describes. Only the files
// the task lists." and "git add — only the files this task touched").
// Files inside the plan folder are left to the other rules. In the skill's
// dialect a phase without a brief is a finding: nothing says which files
// its tasks may change.
func checkTaskFiles(in Input) []Finding {
	var out []Finding
	for _, d := range newlyDone(in) {
		t, b := d.task(), briefOf(in, d.phase)
		f := Finding{Rule: "task-files", File: in.Head.StatePath(d.phase), Line: d.state.TaskLine(d.i, "commit")}
		switch bt := b.taskOrNil(t.ID); {
		case b == nil && in.Head.Progress.Dialect != DialectSkill:
			continue
		case b == nil:
			f.Message = fmt.Sprintf("task %q is done but phase %d has no brief (phases/phase-%d-<name>.md) listing the files its tasks may change", t.ID, d.phase, d.phase)
		case bt == nil:
			f.Message = fmt.Sprintf("task %q is done but %s has no \"### Task %s\" section listing the files it may change", t.ID, b.File, t.ID)
		default:
			extra := unlisted(in.Head.Dir, in.PR.Commits[d.at].Files, bt.Files)
			if len(extra) == 0 {
				continue
			}
			f.Message = fmt.Sprintf("task %q's commit %s changes %s, which %s:%d does not list for it (it lists %s); a task changes only the files its brief lists",
				t.ID, t.Commit, strings.Join(extra, ", "), b.File, max(bt.FilesLine, bt.Line), listedFiles(bt.Files))
		}
		out = append(out, f)
	}
	return append(out, checkOtherCommits(in)...)
}

// checkOtherCommits: a commit of the pull request that no newly done task
// names (a state-file commit, work of a task not yet done) changes only
// files some task of the phase's brief lists, so that work outside every
// task cannot ride along. Only files the change as a whole changes count
// (a merge of the base branch brings in files that are no work of the
// phase). It applies when the change names its phase and that phase has a
// brief.
func checkOtherCommits(in Input) []Finding {
	b := briefOf(in, in.PR.Phase)
	if b == nil {
		return nil
	}
	named := map[int]bool{}
	for _, d := range newlyDone(in) {
		named[d.at] = true
	}
	var all []string
	for _, t := range b.Tasks {
		all = append(all, t.Files...)
	}
	var out []Finding
	for i, c := range in.PR.Commits {
		if named[i] {
			continue
		}
		extra := slices.DeleteFunc(unlisted(in.Head.Dir, c.Files, all), func(f string) bool { return !changed(in, f) })
		if len(extra) > 0 {
			out = append(out, Finding{Rule: "task-files", File: b.File, Line: 1, Message: fmt.Sprintf(
				"commit %.12s changes %s, which no task of this brief lists; a phase's commits change only the files its tasks list",
				c.SHA, strings.Join(extra, ", "))})
		}
	}
	return out
}

// taskOrNil is Task on a brief that may be nil.
func (b *Brief) taskOrNil(id string) *BriefTask {
	if b == nil {
		return nil
	}
	return b.Task(id)
}

// unlisted are the files outside the plan folder dir that no listed path
// (or pattern) names.
func unlisted(dir string, files, listed []string) []string {
	var out []string
	for _, f := range files {
		if inside(dir, f) != "" {
			continue
		}
		if !slices.ContainsFunc(listed, func(l string) bool { return lists(l, f) }) {
			out = append(out, f)
		}
	}
	return out
}

// lists reports whether the brief's entry l names file f: the same path,
// a pattern matching it, or a folder ("src/redis/") holding it.
func lists(l, f string) bool {
	if dir, ok := strings.CutSuffix(l, "/"); ok && dir != "" {
		return strings.HasPrefix(f, strings.TrimPrefix(dir, "./")+"/")
	}
	return config.MatchPath(l, f)
}

func listedFiles(files []string) string {
	if len(files) == 0 {
		return "no file"
	}
	return strings.Join(files, ", ")
}

// checkPreconditions: the tasks a brief names as pre-conditions are done
// before the task's commit — those of its "## Pre-conditions" section for
// every task of the phase, those of its own "Pre-conditions:" line for
// that task (executor-state STEP 3: pre-conditions hold before the work;
// a failure means blocked, never going on).
func checkPreconditions(in Input) []Finding {
	var out []Finding
	for _, d := range newlyDone(in) {
		b := briefOf(in, d.phase)
		if b == nil {
			continue
		}
		t := d.task()
		refs := slices.Clone(b.PreTasks)
		if bt := b.Task(t.ID); bt != nil {
			refs = append(refs, bt.Requires...)
		}
		for _, r := range refs {
			if r.ID == t.ID {
				continue
			}
			if why := unmet(in, r.ID, d.at); why != "" {
				out = append(out, Finding{Rule: "task-preconditions", File: in.Head.StatePath(d.phase), Line: d.state.TaskLine(d.i, "status"),
					Message: fmt.Sprintf("task %q is done at commit %s, but task %q, a pre-condition of it (%s:%d), %s", t.ID, t.Commit, r.ID, b.File, r.Line, why)})
			}
		}
	}
	return out
}

// unmet says why task id was not done before the pull request's commit at
// index at; "" when it was: done at base, its phase approved at base, or
// done at an earlier commit of the pull request.
func unmet(in Input, id string, at int) string {
	n := phaseOfTask(in.Head.Progress, id)
	if n == 0 {
		return "is not a task of progress.json"
	}
	if in.Base.approved(n) || taskDone(in.Base.States[n], id) != nil {
		return ""
	}
	t := taskDone(in.Head.States[n], id)
	if t == nil {
		return "is not done"
	}
	switch j := commitIndex(in.PR, t.Commit); {
	case j < 0:
		return fmt.Sprintf("names commit %s, which is none of this pull request's commits", t.Commit)
	case j >= at:
		return fmt.Sprintf("was done after it, at commit %s", t.Commit)
	}
	return ""
}

// phaseOfTask is the phase of task id in p; 0 when none has it.
func phaseOfTask(p *Progress, id string) int {
	for _, ph := range p.Phases {
		if slices.ContainsFunc(ph.Tasks, func(t Task) bool { return t.ID == id }) {
			return ph.ID
		}
	}
	return 0
}

// taskDone is s's task id when s records it done; nil otherwise.
func taskDone(s *State, id string) *TaskState {
	if s == nil {
		return nil
	}
	i := slices.IndexFunc(s.Tasks, func(t TaskState) bool { return t.ID == id && t.Status == TaskDone })
	if i < 0 {
		return nil
	}
	return &s.Tasks[i]
}

// checkVerifyCommands: the commands the executor records are the plan's
// (executor-state STEP 7: verify with the task's verify_command, then
// commands.test, commands.lint, commands.build). A changed skill-dialect
// state file's verification.test, .lint and .build run the contract's
// commands of those names, and lint or build only when the plan defines
// it; a task's verify_command repeated in progress.json is the brief's.
func checkVerifyCommands(in Input) []Finding {
	contract := in.Head.Progress
	if in.Base.Progress != nil {
		contract = in.Base.Progress
	}
	var out []Finding
	states := changedStates(in)
	for _, n := range slices.Sorted(maps.Keys(states)) {
		s := states[n]
		for i, v := range s.Verification {
			if v.Name == "" || contract.Commands == nil {
				continue
			}
			want, msg := contract.Commands.Named(v.Name), ""
			switch {
			case want == "":
				msg = fmt.Sprintf("verification.%s records %q, but progress.json's commands defines no %s command", v.Name, v.Command, v.Name)
			case want != v.Command:
				msg = fmt.Sprintf("verification.%s ran %q, but progress.json's commands.%s is %q; run the plan's command", v.Name, v.Command, v.Name, want)
			default:
				continue
			}
			out = append(out, Finding{Rule: "verify-commands", File: in.Head.StatePath(n), Line: s.VerificationLine(i, "command"), Message: msg})
		}
	}
	return append(out, briefVerifyMismatches(in)...)
}

// briefVerifyMismatches: a task whose verify_command progress.json repeats
// has the same one in its phase's brief.
func briefVerifyMismatches(in Input) []Finding {
	var out []Finding
	for _, ph := range in.Head.Progress.Phases {
		b := briefOf(in, ph.ID)
		for _, t := range ph.Tasks {
			bt := b.taskOrNil(t.ID)
			if t.VerifyCommand == "" || bt == nil || bt.VerifyCommand == "" || bt.VerifyCommand == t.VerifyCommand {
				continue
			}
			out = append(out, Finding{Rule: "verify-commands", File: b.File, Line: bt.VerifyLine,
				Message: fmt.Sprintf("task %q's verify_command is %q here but %q in progress.json (line %d); the brief's is the task's, make them agree",
					t.ID, bt.VerifyCommand, t.VerifyCommand, taskLine(in.Head.Progress, t.ID))})
		}
	}
	return out
}
