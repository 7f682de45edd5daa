package report

// Status is the worker's verdict on its own attempt.
type Status string

// The three statuses a report may carry.
const (
	StatusDone        Status = "done"
	StatusNeedsRework Status = "needs-rework"
	StatusBlocked     Status = "blocked"
)

// Field names as they appear in a report.
const (
	FieldStatus       = "STATUS"
	FieldWorkUnit     = "WORK-UNIT"
	FieldAttempt      = "ATTEMPT"
	FieldBranch       = "BRANCH"
	FieldPR           = "PR"
	FieldDone         = "DONE"
	FieldNotDone      = "NOT DONE / OPEN"
	FieldFiles        = "FILES"
	FieldVerify       = "VERIFY"
	FieldPreservation = "PRESERVATION"
	FieldLeaseJob     = "LEASE/JOB"
)

// Required lists the fields every report must carry, in report order.
// LEASE/JOB is optional on GitHub, where the pull request is the job.
var Required = []string{
	FieldStatus, FieldWorkUnit, FieldAttempt, FieldBranch, FieldPR, FieldDone,
	FieldNotDone, FieldFiles, FieldVerify, FieldPreservation,
}

// Field is one field's raw value and where it starts in the body.
type Field struct {
	// Name is the canonical field name (one of the Field* constants).
	Name string
	// Line is the 1-based line of the body holding the label.
	Line int
	// Inline is the text after the label on its own line, trimmed.
	Inline string
	// Items are the following lines up to the next label, list markers
	// removed, blank lines dropped.
	Items []string
	// ItemLines are the 1-based body lines of Items.
	ItemLines []int
}

// Values is Inline (when not empty) followed by Items.
func (f Field) Values() []string {
	if f.Inline == "" {
		return f.Items
	}
	return append([]string{f.Inline}, f.Items...)
}

// Report is a parsed worker report. Fields holds every field found, by
// canonical name; the typed members are filled from it where they parse.
type Report struct {
	// Found is false when the body holds no STATUS line at all.
	Found bool
	// Fields are the fields found, by canonical name (the first of each).
	Fields map[string]Field
	// Duplicates are later repetitions of a field already found.
	Duplicates []Field
	// Status is the STATUS value, lower-cased.
	Status Status
	// Attempt is the ATTEMPT number, 0 when absent or not a number.
	Attempt int
	// Verify are the VERIFY items split into command and result.
	Verify []VerifyStep
	// Preservation is the parsed PRESERVATION line.
	Preservation Preservation
}

// VerifyStep is one VERIFY item: a command and the result it gave.
type VerifyStep struct {
	// Command is what was run.
	Command string
	// Result is what it gave; empty when the item names no result.
	Result string
	// Line is the item's 1-based line in the body.
	Line int
}

// Preservation is the PRESERVATION field: the worktree was clean and the
// branch pushed at SHA.
type Preservation struct {
	// Clean and Pushed say whether the words "clean" and "pushed" appear.
	Clean, Pushed bool
	// SHA is the first hexadecimal word of 7 to 40 characters, lower-cased.
	SHA string
}

// Problem is one thing wrong with a report, at a line of the body (0 when
// the problem is an absence).
type Problem struct {
	// Code is a stable token, e.g. "missing-field" or "stale-preservation".
	Code string
	// Field is the field concerned, when there is one.
	Field string
	// Line is the 1-based body line, or 0.
	Line int
	// Message says what is wrong and how to fix it.
	Message string
}
