package plans

import "fmt"

// Version is the only schema version of aepgate's own dialect of the three
// files this package reads. A state file without a version key is in the
// Executor skill's dialect (skill.go).
const Version = 1

// Dialects of a state file.
const (
	// DialectAepgate is aepgate's own state file: "version": 1, tasks as a
	// list.
	DialectAepgate = "aepgate"
	// DialectSkill is the Executor skill's state file as the skill writes
	// it: no version key, tasks as an object keyed by task ID.
	DialectSkill = "skill"
)

// Phase state values an executor may write; StatusDone is read only so that
// it can be refused (a phase's done is derived from its review file).
const (
	StatusClaimed     = "claimed"
	StatusInProgress  = "in_progress"
	StatusBlocked     = "blocked"
	StatusNeedsReview = "needs_review"
	StatusDone        = "done"
)

// Task state values. TaskTodo is aepgate's word for a task not begun,
// TaskNotStarted the skill's; a dialect accepts only its own.
const (
	TaskTodo       = "todo"
	TaskNotStarted = "not_started"
	TaskInProgress = "in_progress"
	TaskDone       = "done"
	TaskFailed     = "failed"
)

// MaxAttempts is how many fix attempts a task may take before it is
// recorded failed ("two fix attempts, then stop").
const MaxAttempts = 2

// Review verdicts.
const (
	VerdictApproved         = "approved"
	VerdictChangesRequested = "changes_requested"
)

// Progress is progress.json: the plan's contract, changed only with an
// owner's approval.
type Progress struct {
	// Dialect is DialectAepgate ("version": 1) or DialectSkill (no version
	// key: the Executor skill's progress.json, read tolerantly).
	Dialect string  `json:"-"`
	Version int     `json:"version"`
	Slug    string  `json:"slug"`
	Owner   string  `json:"owner"`
	Phases  []Phase `json:"phases"`
	// VerifyCommands, when present, are the only recorded verification
	// commands a re-run may start (SelectReruns); nil means the contract
	// lists none, so every recorded command is the executor's own choice.
	VerifyCommands []string `json:"verify_commands,omitempty"`
	// Commands is the skill's "commands" block (test, and lint and build
	// when the plan defines them); nil in aepgate's dialect.
	Commands *Commands `json:"-"`
	lines    lines
}

// Commands are the plan's verification commands in the Executor skill's
// progress.json ("commands.test", "commands.lint", "commands.build"); an
// empty one is not defined by the plan.
type Commands struct {
	Test  string `json:"test"`
	Lint  string `json:"lint"`
	Build string `json:"build"`
}

// Named returns the plan's command called name (test, lint or build).
func (c *Commands) Named(name string) string {
	switch {
	case c == nil:
		return ""
	case name == "test":
		return c.Test
	case name == "lint":
		return c.Lint
	case name == "build":
		return c.Build
	}
	return ""
}

// Phase is one phase of the contract.
type Phase struct {
	ID    int    `json:"id"`
	Title string `json:"title"`
	// Name is the skill's phase name, the <name> of its brief
	// phases/phase-<N>-<name>.md; empty in aepgate's dialect.
	Name          string   `json:"-"`
	DependsOn     []int    `json:"depends_on"`
	ParallelSafe  bool     `json:"parallel_safe"`
	ConflictZones []string `json:"conflict_zones"`
	// Reviewer is the login whose review file decides the phase; empty
	// means the plan's Owner.
	Reviewer string `json:"reviewer,omitempty"`
	Tasks    []Task `json:"tasks"`
}

// Task is one task of a phase; its ID is never deleted or renumbered.
type Task struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// VerifyCommand is the task's verify_command when the skill's
	// progress.json repeats it; empty otherwise.
	VerifyCommand string `json:"-"`
}

// State is state/phase-<N>.json, written by phase N's executor, in either
// dialect; the JSON tags are aepgate's dialect (the skill's is read by
// parseSkillState into the same value).
type State struct {
	// Dialect is DialectAepgate or DialectSkill, as the file was written.
	Dialect string `json:"-"`
	Version int    `json:"version"`
	Phase   int    `json:"phase"`
	// Executor is who claimed the phase: "executor" in aepgate's dialect,
	// "claimed_by" in the skill's. A review file by this login is a
	// self-review and approves nothing.
	Executor string `json:"executor"`
	Branch   string `json:"branch"`
	// Worktree is where the executor works, repository-relative
	// (".worktrees/phase-2"); empty when not recorded.
	Worktree string `json:"worktree,omitempty"`
	// StartedAt is the claim's time as written (RFC 3339); informational.
	StartedAt    string         `json:"started_at,omitempty"`
	Status       string         `json:"status"`
	Tasks        []TaskState    `json:"tasks"`
	Verification []Verification `json:"verification"`
	// Advisor is the skill's record of advisor consultations; informational.
	Advisor *Advisor `json:"-"`
	lines   lines
}

// Advisor is the skill's "advisor" object: when the early and late
// consultations happened (nil: not yet).
type Advisor struct {
	Early *string `json:"early"`
	Late  *string `json:"late"`
}

// TaskState is a task's reported status and, when done, its commit.
type TaskState struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	// Commit is the task's commit: a full SHA or an abbreviation of at
	// least 7 hex digits, resolved against the pull request's commits.
	Commit      string `json:"commit,omitempty"`
	CompletedAt string `json:"completed_at,omitempty"`
	// FailureReason, Attempts and Blocks describe a failed task: why, how
	// many fix attempts it took (at most MaxAttempts), and which tasks
	// cannot be done on top of it.
	FailureReason string   `json:"failure_reason,omitempty"`
	Attempts      int      `json:"attempts,omitempty"`
	Blocks        []string `json:"blocks,omitempty"`
	// field is the member path of the task in its file, for Line.
	field string
}

// Verification is one command the executor ran and the exit code it
// reports. ExitCode is required: a missing code is an error, not a zero.
type Verification struct {
	// Name is the skill's key (test, lint or build); empty in aepgate's
	// list form.
	Name       string `json:"-"`
	Command    string `json:"command"`
	ExitCode   *int   `json:"exit_code"`
	OutputTail string `json:"output_tail,omitempty"`
	field      string
}

// Review is state/phase-<N>.review.json, written by the phase's reviewer.
type Review struct {
	Version  int    `json:"version"`
	Phase    int    `json:"phase"`
	Reviewer string `json:"reviewer"`
	Verdict  string `json:"verdict"`
	Commit   string `json:"commit"`
	Notes    string `json:"notes,omitempty"`
	lines    lines
}

// Line returns the 1-based line of the JSON member at field
// ("phases[0].tasks[1].id"), or of its closest enclosing member; 1 when
// none is known.
func (p *Progress) Line(field string) int { return p.lines.at(field) }

// Line is Progress.Line for a state file.
func (s *State) Line(field string) int { return s.lines.at(field) }

// TaskLine returns the line of member sub ("commit", "" for the task
// itself) of s.Tasks[i], in either dialect.
func (s *State) TaskLine(i int, sub string) int { return s.Line(join(s.taskField(i), sub)) }

// VerificationLine returns the line of member sub ("exit_code",
// "command") of s.Verification[i], in either dialect.
func (s *State) VerificationLine(i int, sub string) int {
	f := s.Verification[i].field
	if f == "" {
		f = fmt.Sprintf("verification[%d]", i)
	}
	return s.Line(join(f, sub))
}

func (s *State) taskField(i int) string {
	if f := s.Tasks[i].field; f != "" {
		return f
	}
	return fmt.Sprintf("tasks[%d]", i)
}

func join(field, sub string) string {
	if sub == "" {
		return field
	}
	return field + "." + sub
}

// Line is Progress.Line for a review file.
func (r *Review) Line(field string) int { return r.lines.at(field) }

// phase returns the contract's phase id, or nil.
func (p *Progress) phase(id int) *Phase {
	for i := range p.Phases {
		if p.Phases[i].ID == id {
			return &p.Phases[i]
		}
	}
	return nil
}

// reviewer returns who decides phase id: its Reviewer, else the Owner.
func (p *Progress) reviewer(id int) string {
	if ph := p.phase(id); ph != nil && ph.Reviewer != "" {
		return ph.Reviewer
	}
	return p.Owner
}
