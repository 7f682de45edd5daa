package plans

// Version is the only schema version of the three files this package reads.
const Version = 1

// Phase state values an executor may write; StatusDone is read only so that
// it can be refused (a phase's done is derived from its review file).
const (
	StatusClaimed     = "claimed"
	StatusInProgress  = "in_progress"
	StatusNeedsReview = "needs_review"
	StatusDone        = "done"
)

// Task state values.
const (
	TaskTodo       = "todo"
	TaskInProgress = "in_progress"
	TaskDone       = "done"
)

// Review verdicts.
const (
	VerdictApproved         = "approved"
	VerdictChangesRequested = "changes_requested"
)

// Progress is progress.json: the plan's contract, changed only with an
// owner's approval.
type Progress struct {
	Version int     `json:"version"`
	Slug    string  `json:"slug"`
	Owner   string  `json:"owner"`
	Phases  []Phase `json:"phases"`
	// VerifyCommands, when present, are the only recorded verification
	// commands a re-run may start (SelectReruns); nil means the contract
	// lists none, so every recorded command is the executor's own choice.
	VerifyCommands []string `json:"verify_commands,omitempty"`
	lines          lines
}

// Phase is one phase of the contract.
type Phase struct {
	ID            int      `json:"id"`
	Title         string   `json:"title"`
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
}

// State is state/phase-<N>.json, written by phase N's executor.
type State struct {
	Version      int            `json:"version"`
	Phase        int            `json:"phase"`
	Executor     string         `json:"executor"`
	Branch       string         `json:"branch"`
	Status       string         `json:"status"`
	Tasks        []TaskState    `json:"tasks"`
	Verification []Verification `json:"verification"`
	lines        lines
}

// TaskState is a task's reported status and, when done, its commit.
type TaskState struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Commit string `json:"commit,omitempty"`
}

// Verification is one command the executor ran and the exit code it
// reports. ExitCode is required: a missing code is an error, not a zero.
type Verification struct {
	Command    string `json:"command"`
	ExitCode   *int   `json:"exit_code"`
	OutputTail string `json:"output_tail,omitempty"`
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
