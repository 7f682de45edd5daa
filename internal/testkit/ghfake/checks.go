package ghfake

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// GitHub's check-run limits
// (https://docs.github.com/rest/checks/runs#update-a-check-run).
const (
	// MaxOutputBytes caps output.summary and output.text. GitHub documents
	// 65,535 characters but in practice counts closer to bytes
	// (github/rest-api-description#5399), so the fake counts UTF-8 bytes.
	MaxOutputBytes = 65535
	// MaxAnnotationsPerRequest is how many annotations one create or update
	// may carry; later updates append.
	MaxAnnotationsPerRequest = 50
	// MaxAnnotationTitle caps an annotation's title (characters).
	MaxAnnotationTitle = 255
	// MaxAnnotationBytes caps an annotation's message and raw_details.
	MaxAnnotationBytes = 64 * 1024
	// MaxActions is how many requested-action buttons a check run may have.
	MaxActions = 3
)

type checkState struct {
	runs   []*checkRun
	suites []*checkSuite
}

// Annotation is one check-run annotation as stored.
type Annotation struct {
	Path        string `json:"path"`
	StartLine   int    `json:"start_line"`
	EndLine     int    `json:"end_line"`
	StartColumn *int   `json:"start_column,omitempty"`
	EndColumn   *int   `json:"end_column,omitempty"`
	Level       string `json:"annotation_level"`
	Message     string `json:"message"`
	Title       string `json:"title,omitempty"`
	RawDetails  string `json:"raw_details,omitempty"`
}

// CheckAction is a requested-action button.
type CheckAction struct {
	Label       string `json:"label"`
	Description string `json:"description"`
	Identifier  string `json:"identifier"`
}

type checkRun struct {
	id          int64
	suite       *checkSuite
	app         *App
	name        string
	headSHA     string
	externalID  string
	detailsURL  string
	status      string
	conclusion  string
	started     time.Time
	completed   time.Time
	hasOutput   bool
	title       string
	summary     string
	text        string
	annotations []Annotation
	actions     []CheckAction
}

type checkSuite struct {
	id         int64
	app        *App
	headSHA    string
	headBranch string
	created    time.Time
	updated    time.Time
	rerequests int
	run        *workflowRun // the Actions workflow run it belongs to; nil for other Apps
}

// checkInput is the body of a check-run create or update.
type checkInput struct {
	Name        *string       `json:"name"`
	HeadSHA     *string       `json:"head_sha"`
	DetailsURL  *string       `json:"details_url"`
	ExternalID  *string       `json:"external_id"`
	Status      *string       `json:"status"`
	Conclusion  *string       `json:"conclusion"`
	StartedAt   *time.Time    `json:"started_at"`
	CompletedAt *time.Time    `json:"completed_at"`
	Output      *checkOutput  `json:"output"`
	Actions     []CheckAction `json:"actions"`
}

type checkOutput struct {
	Title       *string      `json:"title"`
	Summary     *string      `json:"summary"`
	Text        *string      `json:"text"`
	Annotations []Annotation `json:"annotations"`
}

var (
	runStatuses    = map[string]bool{"queued": true, "in_progress": true, "completed": true}
	actionStatuses = map[string]bool{"waiting": true, "requested": true, "pending": true}
	conclusions    = map[string]bool{"action_required": true, "cancelled": true, "failure": true,
		"neutral": true, "success": true, "skipped": true, "timed_out": true}
	levels = map[string]bool{"notice": true, "warning": true, "failure": true}
)

// checkErr is a check-run validation failure: the field and GitHub's message.
type checkErr struct{ field, msg string }

func (e *checkErr) Error() string { return e.field + ": " + e.msg }

// validate applies GitHub's rules to a create (create=true) or update.
func (in *checkInput) validate(create, actions bool) *checkErr {
	if create && (in.Name == nil || *in.Name == "") {
		return &checkErr{"name", "name wasn't supplied"}
	}
	if in.Status != nil && !runStatuses[*in.Status] && !(actions && actionStatuses[*in.Status]) {
		return &checkErr{"status", fmt.Sprintf("%q is not a valid status", *in.Status)}
	}
	if in.Conclusion != nil && *in.Conclusion != "" && !conclusions[*in.Conclusion] {
		return &checkErr{"conclusion", fmt.Sprintf("%q is not a valid conclusion", *in.Conclusion)}
	}
	if in.Status != nil && *in.Status == "completed" && (in.Conclusion == nil || *in.Conclusion == "") {
		return &checkErr{"conclusion", "conclusion is required when status is completed"}
	}
	if len(in.Actions) > MaxActions {
		return &checkErr{"actions", fmt.Sprintf("at most %d actions are allowed", MaxActions)}
	}
	for _, a := range in.Actions {
		if utf8.RuneCountInString(a.Label) > 20 || utf8.RuneCountInString(a.Description) > 40 || utf8.RuneCountInString(a.Identifier) > 20 {
			return &checkErr{"actions", "action label ≤ 20, description ≤ 40 and identifier ≤ 20 characters"}
		}
	}
	if in.Output != nil {
		return in.Output.validate()
	}
	return nil
}

func (o *checkOutput) validate() *checkErr {
	if o.Title == nil || o.Summary == nil {
		return &checkErr{"output", "\"title\", \"summary\" weren't supplied"}
	}
	for field, v := range map[string]*string{"output.summary": o.Summary, "output.text": o.Text} {
		if v != nil && len(*v) > MaxOutputBytes {
			return &checkErr{field, fmt.Sprintf("Only %d characters are allowed; %d were supplied.", MaxOutputBytes, len(*v))}
		}
	}
	if len(o.Annotations) > MaxAnnotationsPerRequest {
		return &checkErr{"output.annotations", fmt.Sprintf("Only %d annotations are allowed per request; %d were supplied.", MaxAnnotationsPerRequest, len(o.Annotations))}
	}
	for i, a := range o.Annotations {
		if err := a.validate(); err != nil {
			return &checkErr{fmt.Sprintf("output.annotations[%d].%s", i, err.field), err.msg}
		}
	}
	return nil
}

func (a Annotation) validate() *checkErr {
	switch {
	case a.Path == "" || a.StartLine <= 0 || a.EndLine <= 0 || a.Message == "":
		return &checkErr{"path", "path, start_line, end_line, annotation_level and message are required"}
	case !levels[a.Level]:
		return &checkErr{"annotation_level", fmt.Sprintf("%q is not notice, warning or failure", a.Level)}
	case a.EndLine < a.StartLine:
		return &checkErr{"end_line", "end_line is before start_line"}
	case (a.StartColumn != nil || a.EndColumn != nil) && a.StartLine != a.EndLine:
		return &checkErr{"start_column", "start_column and end_column may only be set when start_line equals end_line"}
	case utf8.RuneCountInString(a.Title) > MaxAnnotationTitle:
		return &checkErr{"title", fmt.Sprintf("title is longer than %d characters", MaxAnnotationTitle)}
	case len(a.Message) > MaxAnnotationBytes || len(a.RawDetails) > MaxAnnotationBytes:
		return &checkErr{"message", "message and raw_details are limited to 64 KB"}
	}
	return nil
}

// apply copies an accepted input onto run.
func (in *checkInput) apply(run *checkRun, now time.Time) {
	set(&run.detailsURL, in.DetailsURL)
	set(&run.externalID, in.ExternalID)
	set(&run.status, in.Status)
	if in.StartedAt != nil {
		run.started = in.StartedAt.UTC()
	}
	if in.Conclusion != nil && *in.Conclusion != "" {
		run.conclusion, run.status = *in.Conclusion, "completed"
	}
	if run.status == "completed" && run.completed.IsZero() {
		run.completed = now
		if in.CompletedAt != nil {
			run.completed = in.CompletedAt.UTC()
		}
	}
	if in.Actions != nil {
		run.actions = in.Actions
	}
	if o := in.Output; o != nil {
		run.hasOutput = true
		set(&run.title, o.Title)
		set(&run.summary, o.Summary)
		set(&run.text, o.Text)
		run.annotations = append(run.annotations, o.Annotations...)
	}
}

// suiteFor finds or creates the check suite of app at sha (an App has one
// per commit; Actions has one per workflow run, and a run created with a
// GITHUB_TOKEN joins the first of them); callers hold mu.
func (f *Fake) suiteFor(s *repoState, app *App, sha string) *checkSuite {
	for _, su := range s.checks.suites {
		if su.app == app && su.headSHA == sha {
			return su
		}
	}
	return f.newSuite(s, app, sha, s.branchOf(sha))
}

// newSuite records a new check suite of app at sha; callers hold mu.
func (f *Fake) newSuite(s *repoState, app *App, sha, branch string) *checkSuite {
	su := &checkSuite{id: f.nextID(), app: app, headSHA: sha, headBranch: branch, created: f.clock(), updated: f.clock()}
	s.checks.suites = append(s.checks.suites, su)
	return su
}

// branchOf names a branch whose head is sha, preferring the default.
func (s *repoState) branchOf(sha string) string {
	if s.refs["refs/heads/"+s.defaultBranch] == sha {
		return s.defaultBranch
	}
	for _, r := range s.sortedRefs() {
		if b, ok := strings.CutPrefix(r, "refs/heads/"); ok && s.refs[r] == sha {
			return b
		}
	}
	return ""
}

// suiteStatus aggregates a suite's runs as GitHub does.
func (s *repoState) suiteStatus(su *checkSuite) (status, conclusion string) {
	rank := map[string]int{"action_required": 7, "cancelled": 5, "timed_out": 6, "failure": 8, "neutral": 1, "skipped": 0, "success": 2, "stale": 3}
	status = "completed"
	best := -1
	n := 0
	for _, r := range s.checks.runs {
		if r.suite != su {
			continue
		}
		n++
		if r.status != "completed" {
			status = r.status
			continue
		}
		if rank[r.conclusion] > best {
			best, conclusion = rank[r.conclusion], r.conclusion
		}
	}
	if n == 0 && su.run != nil {
		return su.run.status, su.run.conclusion
	}
	if n == 0 {
		return "queued", ""
	}
	if status != "completed" {
		return status, ""
	}
	return status, conclusion
}
