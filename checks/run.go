package checks

// Status is a check run's state: queued, in_progress or completed.
type Status string

// The statuses GitHub accepts when a run is written.
const (
	StatusQueued     Status = "queued"
	StatusInProgress Status = "in_progress"
	StatusCompleted  Status = "completed"
)

// Conclusion is how a completed check run ended. Setting one makes the run
// completed; only GitHub itself may set "stale".
type Conclusion string

// The conclusions GitHub accepts when a run is written.
const (
	ConclusionSuccess        Conclusion = "success"
	ConclusionFailure        Conclusion = "failure"
	ConclusionNeutral        Conclusion = "neutral"
	ConclusionCancelled      Conclusion = "cancelled"
	ConclusionSkipped        Conclusion = "skipped"
	ConclusionTimedOut       Conclusion = "timed_out"
	ConclusionActionRequired Conclusion = "action_required"
)

// Level is an annotation's severity as GitHub names it.
type Level string

// The three annotation levels.
const (
	LevelNotice  Level = "notice"
	LevelWarning Level = "warning"
	LevelFailure Level = "failure"
)

// Run is everything one check run on GitHub says. The publisher finds an
// earlier run to update by Name, HeadSHA and ExternalID, so the same three
// values always address the same run.
type Run struct {
	// Name is the check's name, e.g. "aep/lint" or "aepgate/merge".
	Name string
	// HeadSHA is the 40-hex commit the run is attached to.
	HeadSHA string
	// ExternalID is the caller's key for the run (aepgate puts the evidence
	// hash here where one exists); it may be empty.
	ExternalID string
	// Status is queued, in_progress or completed; empty means completed when
	// a Conclusion is set and queued otherwise.
	Status Status
	// Conclusion is required when Status is completed.
	Conclusion Conclusion
	// Title is the output title shown beside the check's name.
	Title string
	// Summary is the Markdown output summary.
	Summary string
	// Text is the Markdown output text (details below the summary).
	Text string
	// Annotations point at file lines; the publisher pages them.
	Annotations []Annotation
	// Actions are at most MaxActions buttons.
	Actions []Action
	// DetailsURL is where the full details live; GitHub wants one when the
	// conclusion is action_required.
	DetailsURL string
}

// Annotation is one remark attached to a file range in a check run.
type Annotation struct {
	// Path is the file's path relative to the repository root.
	Path string
	// StartLine and EndLine are 1-based and inclusive.
	StartLine, EndLine int
	// StartColumn and EndColumn apply only when StartLine == EndLine; zero
	// means "not set".
	StartColumn, EndColumn int
	// Level is notice, warning or failure.
	Level Level
	// Title is a short heading (≤ MaxTitleChars).
	Title string
	// Message is the remark itself and is required.
	Message string
	// RawDetails is optional verbatim detail (≤ 64 KB).
	RawDetails string
}

// Action is a button on the check run; a click sends
// check_run.requested_action carrying Identifier to the App that owns it.
type Action struct {
	// Label is the button text (≤ MaxActionLabelChars).
	Label string
	// Description explains the action (≤ MaxActionDescriptionChars).
	Description string
	// Identifier is what the App receives (≤ MaxActionIdentifierChars).
	Identifier string
}

// EffectiveStatus is the status the run is written with: Status when set,
// completed when only a Conclusion is, queued otherwise.
func (r Run) EffectiveStatus() Status {
	switch {
	case r.Status != "":
		return r.Status
	case r.Conclusion != "":
		return StatusCompleted
	default:
		return StatusQueued
	}
}
