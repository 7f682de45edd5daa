package plans

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

var (
	slugRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`) })
	taskIDRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$`) })
	shaRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([0-9a-f]{40}|[0-9a-f]{64})$`) })
	// abbrevRE is a commit as a state file may name it: a full SHA or an
	// abbreviation of at least 7 hex digits (resolved by task-commits).
	abbrevRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{7,64}$`) })
)

func checkVersion(e *errs, v int) {
	if v != Version {
		e.add("version", "version %d is not supported (want %d)", v, Version)
	}
}

func validateProgress(e *errs, p *Progress) {
	if p.Dialect != DialectSkill { // the skill's has no version, slug or owner (executor-state)
		checkVersion(e, p.Version)
		if !slugRE().MatchString(p.Slug) {
			e.add("slug", "want a slug of lowercase letters, digits, '.', '_' or '-', got %q", p.Slug)
		}
		if p.Owner == "" {
			e.add("owner", "required: the login who approves contract changes")
		}
	}
	if len(p.Phases) == 0 {
		e.add("phases", "required: at least one phase")
	}
	validateVerifyCommands(e, p.VerifyCommands)
	seenTask := map[string]bool{}
	for i, ph := range p.Phases {
		f := fmt.Sprintf("phases[%d]", i)
		if ph.ID != i+1 {
			e.add(f+".id", "phases are numbered 1, 2, … in order: want %d, got %d", i+1, ph.ID)
		}
		for j, d := range ph.DependsOn {
			if d < 1 || d >= ph.ID {
				e.add(fmt.Sprintf("%s.depends_on[%d]", f, j), "phase %d may depend only on an earlier phase, got %d", ph.ID, d)
			}
		}
		for j, t := range ph.Tasks {
			tf := fmt.Sprintf("%s.tasks[%d].id", f, j)
			switch {
			case !taskIDRE().MatchString(t.ID):
				e.add(tf, "want a task ID of letters, digits, '.', '_' or '-', got %q", t.ID)
			case seenTask[t.ID]:
				e.add(tf, "task ID %q is used twice", t.ID)
			}
			seenTask[t.ID] = true
		}
	}
}

// validateVerifyCommands wants each listed command non-blank and listed
// once.
func validateVerifyCommands(e *errs, cmds []string) {
	for i, c := range cmds {
		f := fmt.Sprintf("verify_commands[%d]", i)
		switch {
		case strings.TrimSpace(c) == "":
			e.add(f, "want a shell command, got an empty string")
		case slices.Index(cmds, c) < i:
			e.add(f, "command %q is listed twice", c)
		}
	}
}

// stateWords are the status values of each dialect: phase, then task.
var stateWords = map[string][2][]string{
	DialectAepgate: {{StatusClaimed, StatusInProgress, StatusBlocked, StatusNeedsReview, StatusDone},
		{TaskTodo, TaskInProgress, TaskDone, TaskFailed}},
	DialectSkill: {{StatusInProgress, StatusBlocked, StatusNeedsReview, StatusDone},
		{TaskNotStarted, TaskInProgress, TaskDone, TaskFailed}},
}

func validateState(e *errs, s *State) {
	words := stateWords[s.Dialect]
	who := "executor"
	if s.Dialect == DialectSkill {
		who = "claimed_by"
	}
	if s.Phase < 1 {
		e.add("phase", "want the phase number (1 or more), got %d", s.Phase)
	}
	if s.Executor == "" {
		e.add(who, "required: who executes this phase")
	}
	if !slices.Contains(words[0], s.Status) {
		e.add("status", "want %s, got %q", orList(words[0][:len(words[0])-1]), s.Status)
	}
	seen := map[string]bool{}
	for i, t := range s.Tasks {
		f := s.taskField(i)
		if seen[t.ID] {
			e.add(f+".id", "task %q is listed twice", t.ID)
		}
		seen[t.ID] = true
		validateTaskState(e, f, t, words[1])
	}
	for i, v := range s.Verification {
		f := s.Verification[i].field
		if f == "" {
			f = fmt.Sprintf("verification[%d]", i)
		}
		if v.Command == "" {
			e.add(f+".command", "required: the command that was run")
		}
		if v.ExitCode == nil {
			e.add(f+".exit_code", "required: the command's exit code as observed")
		}
	}
}

func validateTaskState(e *errs, f string, t TaskState, words []string) {
	switch {
	case !slices.Contains(words, t.Status):
		e.add(f+".status", "want %s, got %q", orList(words), t.Status)
	case t.Status == TaskDone && !abbrevRE().MatchString(t.Commit):
		e.add(f+".commit", "a done task names its commit as a lowercase SHA (7 to 64 hex digits), got %q", t.Commit)
	case t.Commit != "" && !abbrevRE().MatchString(t.Commit):
		e.add(f+".commit", "want a lowercase SHA (7 to 64 hex digits), got %q", t.Commit)
	case t.Status == TaskFailed && strings.TrimSpace(t.FailureReason) == "":
		e.add(f+".failure_reason", "required: a failed task says why it failed")
	}
	if t.Attempts < 0 {
		e.add(f+".attempts", "want 0 or more, got %d", t.Attempts)
	}
	for j, b := range t.Blocks {
		if !taskIDRE().MatchString(b) {
			e.add(fmt.Sprintf("%s.blocks[%d]", f, j), "want a task ID, got %q", b)
		}
	}
}

// orList writes words as "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

func validateReview(e *errs, r *Review) {
	checkVersion(e, r.Version)
	if r.Phase < 1 {
		e.add("phase", "want the phase number (1 or more), got %d", r.Phase)
	}
	if r.Reviewer == "" {
		e.add("reviewer", "required: the reviewer's login")
	}
	if r.Verdict != VerdictApproved && r.Verdict != VerdictChangesRequested {
		e.add("verdict", "want approved or changes_requested, got %q", r.Verdict)
	}
	if !shaRE().MatchString(r.Commit) {
		e.add("commit", "want the reviewed commit as a full lowercase SHA, got %q", r.Commit)
	}
}
