package plans

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Plan is one plan folder at one commit, already parsed.
type Plan struct {
	// Dir is the folder, repository-relative: "plans/<slug>".
	Dir      string
	Progress *Progress // nil when the folder has no progress.json
	States   map[int]*State
	Reviews  map[int]*Review
	// Handoff is HANDOFF.md's content; nil when the folder has none.
	Handoff []byte
	// Briefs are the phase briefs phases/phase-<N>-<name>.md by phase;
	// nil or empty when the folder has none.
	Briefs map[int]*Brief
}

// Reads reports whether Add reads the file at rel, a path inside a plan
// folder: progress.json, HANDOFF.md, a state, review or brief file.
func Reads(rel string) bool {
	_, _, state := StateFile(rel)
	_, brief := BriefFile(rel)
	return state || brief || rel == "progress.json" || rel == HandoffFile
}

// HandoffPath is the repository-relative path of HANDOFF.md.
func (p Plan) HandoffPath() string { return path.Join(p.Dir, HandoffFile) }

// HandoffFile is the name of the session handoff inside a plan folder.
const HandoffFile = "HANDOFF.md"

// ProgressPath is the repository-relative path of progress.json.
func (p Plan) ProgressPath() string { return path.Join(p.Dir, "progress.json") }

// StatePath is the repository-relative path of phase n's state file.
func (p Plan) StatePath(n int) string {
	return path.Join(p.Dir, "state", fmt.Sprintf("phase-%d.json", n))
}

// ReviewPath is the repository-relative path of phase n's review file.
func (p Plan) ReviewPath(n int) string {
	return path.Join(p.Dir, "state", fmt.Sprintf("phase-%d.review.json", n))
}

// approved reports whether phase n has an approving review file written
// in the name of the phase's reviewer.
func (p Plan) approved(n int) bool {
	r := p.review(n)
	return r != nil && r.Verdict == VerdictApproved
}

// review returns phase n's review file when it names the phase's reviewer
// (progress.json's phase reviewer, else its owner) and that reviewer is
// not the phase's executor (the state file's executor or claimed_by: a
// self-review approves nothing); nil otherwise.
func (p Plan) review(n int) *Review {
	r := p.Reviews[n]
	if r == nil || p.Progress == nil || r.Reviewer != p.Progress.reviewer(n) || p.selfReview(n) {
		return nil
	}
	return r
}

// selfReview reports whether phase n's review file is in the name of the
// executor that claimed the phase.
func (p Plan) selfReview(n int) bool {
	r, s := p.Reviews[n], p.States[n]
	return r != nil && s != nil && s.Executor != "" && r.Reviewer == s.Executor
}

// Derived returns phase n's status as aepgate shows it: "done" only when
// its review file, in the name of the phase's reviewer, approves;
// "changes_requested" when that review asks for changes; otherwise the
// executor's status, or "not_started".
func (p Plan) Derived(n int) string {
	if r := p.review(n); r != nil {
		if r.Verdict == VerdictApproved {
			return StatusDone
		}
		return VerdictChangesRequested
	}
	if s := p.States[n]; s != nil {
		if s.Status == StatusDone {
			return StatusNeedsReview // an executor's "done" is not believed
		}
		return s.Status
	}
	return "not_started"
}

var (
	branchRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^plan/([a-z0-9][a-z0-9._-]{0,63})/phase-([1-9][0-9]{0,3})$`)
	})
	fileRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^state/phase-([1-9][0-9]{0,3})(\.review)?\.json$`) })
)

// PhaseFromBranch reads "plan/<slug>/phase-<N>"; ok is false for any other
// branch name.
func PhaseFromBranch(branch string) (slug string, n int, ok bool) {
	m := branchRE().FindStringSubmatch(branch)
	if m == nil {
		return "", 0, false
	}
	n, _ = strconv.Atoi(m[2])
	return m[1], n, true
}

// StateFile classifies rel, a path inside a plan folder: the phase of a
// state or review file; ok is false for any other path.
func StateFile(rel string) (phase int, review, ok bool) {
	m := fileRE().FindStringSubmatch(rel)
	if m == nil {
		return 0, false, false
	}
	phase, _ = strconv.Atoi(m[1])
	return phase, m[2] != "", true
}

// Add parses data as the file at the repository-relative path file inside
// the folder and adds it to p: progress.json, a state file or a review
// file. Any other path is ignored. The error is Errors.
func (p *Plan) Add(file string, data []byte) error {
	rel, ok := strings.CutPrefix(file, p.Dir+"/")
	if !ok {
		return nil
	}
	if rel == HandoffFile {
		if len(data) > MaxFileSize {
			return Errors{{File: file, Message: fmt.Sprintf("file is %d bytes, over the %d-byte limit", len(data), MaxFileSize)}}
		}
		p.Handoff = data
		return nil
	}
	if rel == "progress.json" {
		pr, err := ParseProgress(file, data)
		if err == nil {
			p.Progress = pr
		}
		return err
	}
	if n, ok := BriefFile(rel); ok {
		return p.addBrief(n, file, data)
	}
	n, review, ok := StateFile(rel)
	switch {
	case !ok:
		return nil
	case review:
		return addParsed(p.Reviews, n, file, data, ParseReview, func(r *Review) int { return r.Phase })
	default:
		return addParsed(p.States, n, file, data, ParseState, func(s *State) int { return s.Phase })
	}
}

// addBrief parses phase n's brief; a second brief for the same phase is an
// error (which one holds the phase's tasks would be a guess).
func (p *Plan) addBrief(n int, file string, data []byte) error {
	if b := p.Briefs[n]; b != nil {
		return Errors{{File: file, Line: 1, Message: fmt.Sprintf("phase %d already has a brief, %s; keep one phases/phase-%d-<name>.md", n, b.File, n)}}
	}
	b, err := ParseBrief(file, n, data)
	if err != nil {
		return err
	}
	if p.Briefs == nil {
		p.Briefs = map[int]*Brief{}
	}
	p.Briefs[n] = b
	return nil
}

// addParsed parses one phase file into m[n]; a file whose "phase" is not n
// is an error.
func addParsed[T any](m map[int]*T, n int, file string, data []byte, parse func(string, []byte) (*T, error), phase func(*T) int) error {
	v, err := parse(file, data)
	if err != nil {
		return err
	}
	if got := phase(v); got != n {
		return Errors{{File: file, Line: 1, Field: "phase", Message: fmt.Sprintf("the file of phase %d says phase %d", n, got)}}
	}
	m[n] = v
	return nil
}

// SetOwner names login as the owner of a plan whose progress.json is in
// the Executor skill's dialect, which names none (executor-state: its owner
// is whoever the repository's owners are): the login then approves
// contract changes and reviews phases, as owner does in aepgate's dialect.
// A plan that names its owner, or has no progress.json, is left alone.
func (p *Plan) SetOwner(login string) {
	if p.Progress != nil && p.Progress.Dialect == DialectSkill && p.Progress.Owner == "" {
		p.Progress.Owner = login
	}
}
