package review

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/protocol/command"
)

// Info is the info string of the fenced block that holds an audit.
const Info = "aep-audit"

// SchemaVersion is the only schema_version an audit block may have.
const SchemaVersion = 1

// Verdicts of an audit.
const (
	VerdictPass          = "PASS"
	VerdictFail          = "FAIL"
	VerdictNeedsEvidence = "NEEDS_EVIDENCE"
)

// Judgements of an earlier finding or of its proposed disposition.
const (
	Agree            = "AGREE"
	DisagreeEvidence = "DISAGREE_EVIDENCE"
	DisagreeConcern  = "DISAGREE_CONCERN"
)

// Severities of a finding, most severe first.
var Severities = []string{"critical", "high", "medium", "low"}

// DefaultBlocking are the severities a PASS may not leave open when the
// repository config names none.
var DefaultBlocking = []string{"critical", "high"}

// OutcomePass is the verification outcome a PASS needs at least one of;
// OutcomeFail is the other accepted outcome.
const (
	OutcomePass = "pass"
	OutcomeFail = "fail"
)

// Evidence is one verbatim quote from a file at the audited commit.
type Evidence struct {
	Path  string `json:"path"`
	Quote string `json:"quote"`
}

// Finding is one thing the auditor found that must hold and does not.
type Finding struct {
	ID          string     `json:"id"`
	Severity    string     `json:"severity"`
	Requirement string     `json:"requirement"`
	Evidence    []Evidence `json:"evidence"`
	Remedy      string     `json:"remedy"`
}

// Verification is one check the auditor ran, with its outcome.
type Verification struct {
	Check    string     `json:"check"`
	Outcome  string     `json:"outcome"`
	Evidence []Evidence `json:"evidence,omitempty"`
}

// Judgement is a verdict on an earlier finding, named by its ledger ID,
// or on the disposition proposed for it (the block's "verdicts" entries).
type Judgement struct {
	FindingID string     `json:"finding_id"`
	Verdict   string     `json:"verdict"`
	Evidence  []Evidence `json:"evidence,omitempty"`
}

// Audit is the content of an aep-audit block. Its JSON form is the block's.
type Audit struct {
	SchemaVersion    int            `json:"schema_version"`
	WorkUnit         string         `json:"work_unit"`
	Verdict          string         `json:"verdict"`
	Summary          string         `json:"summary"`
	Findings         []Finding      `json:"findings,omitempty"`
	Verification     []Verification `json:"verification,omitempty"`
	Verdicts         []Judgement    `json:"verdicts,omitempty"`
	EvidenceRequests []string       `json:"evidence_requests,omitempty"`
}

// Unit is the work unit's number from work_unit ("#42" → 42), or 0 when
// the field does not have that form.
func (a *Audit) Unit() int {
	n, err := strconv.Atoi(strings.TrimPrefix(a.WorkUnit, "#"))
	if err != nil || !strings.HasPrefix(a.WorkUnit, "#") || n <= 0 || strconv.Itoa(n) != a.WorkUnit[1:] {
		return 0
	}
	return n
}

// Evidence returns every evidence entry of the audit with its JSON path,
// in block order: findings, verification, then verdicts.
func (a *Audit) Evidence() []Cited {
	var out []Cited
	add := func(base string, es []Evidence) {
		for j, e := range es {
			out = append(out, Cited{Path: fmt.Sprintf("%s.evidence[%d]", base, j), Evidence: e})
		}
	}
	for i, f := range a.Findings {
		add(fmt.Sprintf("$.findings[%d]", i), f.Evidence)
	}
	for i, v := range a.Verification {
		add(fmt.Sprintf("$.verification[%d]", i), v.Evidence)
	}
	for i, j := range a.Verdicts {
		add(fmt.Sprintf("$.verdicts[%d]", i), j.Evidence)
	}
	return out
}

// Cited is an evidence entry and its JSON path in the block, e.g.
// "$.findings[0].evidence[1]".
type Cited struct {
	Path string
	Evidence
}

// EvidencePaths returns the distinct evidence paths of the audit, sorted,
// leaving out every path CheckPath refuses: those are never read.
// CheckBundle reports them.
func (a *Audit) EvidencePaths() []string {
	var out []string
	for _, c := range a.Evidence() {
		if CheckPath(c.Evidence.Path) == nil {
			out = append(out, c.Evidence.Path)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// LedgerID names a finding across reviews: "<id>@r<review-id>", e.g.
// "F1@r7", so that two auditors' F1 never collide.
func LedgerID(findingID string, reviewID int64) string {
	return findingID + "@r" + strconv.FormatInt(reviewID, 10)
}

// SplitLedgerID returns the finding ID and the review ID of a ledger ID;
// ok is false when s is not one.
func SplitLedgerID(s string) (findingID string, reviewID int64, ok bool) {
	if !command.IsLedgerID(s) {
		return "", 0, false
	}
	i := strings.LastIndex(s, "@r")
	n, err := strconv.ParseInt(s[i+2:], 10, 64)
	if err != nil {
		return "", 0, false
	}
	return s[:i], n, true
}

// validID reports whether s is a finding ID: 1 to 64 letters, digits,
// dots, dashes or underscores.
func validID(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
