package checks

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/gitsha"
	"github.com/aepgate/aepgate/protocol/instructor"
	"github.com/aepgate/aepgate/review"
)

// AuditContext is what the audit renderer says about where it is.
type AuditContext struct {
	// Unit is the work unit; PR the pull request.
	Unit, PR int
	// Risk is the unit's risk tier.
	Risk string
	// PRURL is the pull request's page, the run's details link.
	PRURL string
	// Instructed is who instructed the agents that made the pull request
	// (nil: no listed agent made it); the summary says so (agentNote).
	Instructed *instructor.Finding
	// ContractTamper says what of the unit issue's contract did not count
	// and who changed it ("" when nothing); the summary shows it, since the
	// risk tier comes from the kept contract.
	ContractTamper string
	// Fates is what became of each review and command considered for an
	// agent's pull request (nil: no listed agent made it); the summary
	// lists them (fates).
	Fates *instructor.Decision
}

// Audit renders an audit decision as the aepgate/audit check run on head:
// success when the audit passed or is not required; action_required when
// the owner decides or the auditor needs evidence; failure otherwise
// (failed, invalid, stale, missing, or an outcome it does not know). The
// summary shows the verdict, auditor, audited commit, bundle identity, the
// findings with their dispositions and the reviews that do not count; each
// open finding with a location is an annotation on the quoted lines.
func Audit(head string, c AuditContext, d review.Decision) Run {
	r := Run{Name: NameAudit, HeadSHA: head, DetailsURL: c.PRURL}
	r.Conclusion, r.Title = auditConclusion(head, d)
	var b strings.Builder
	b.WriteString(escapeHTML(d.Reason) + "\n")
	if d.Outcome == review.OutcomeStale {
		fmt.Fprintf(&b, "\nA verdict counts only for the commit it was given at: an auditor reviews %s with an aep-audit block.\n", code(gitsha.Short(head)))
	}
	if c.ContractTamper != "" {
		fmt.Fprintf(&b, "\n**Contract tampering:** %s.\n", escapeHTML(c.ContractTamper))
	}
	w := auditWriter{b: &b, head: head}
	w.agentNote(c.Instructed)
	w.facts(c, d)
	w.problems(d.Problems)
	w.requests(d)
	w.owner(d.OwnerGate)
	w.findings(d.Findings)
	w.ignored(d.Ignored)
	fates(&b, c.Fates)
	b.WriteString("\n_A structurally valid review never means consensus or permission to merge; only aepgate/merge decides that._\n")
	r.Summary = b.String() + DocsFooter(r.Name)
	r.Annotations = append(auditAnnotations(head, d.Findings), quoteAnnotations(d)...)
	return r
}

// quoteAnnotations puts each quote the bundle rules refused (one that does
// not occur, or a file that cannot be read) as a file-level annotation on
// the quoted path, so the author sees which file is meant without reading
// the summary. A path CheckPath refuses (.env, a key) is never annotated.
// Check-run annotations need lines, so a file-level one spans line 1.
func quoteAnnotations(d review.Decision) []Annotation {
	if d.Audit == nil || len(d.Problems) == 0 {
		return nil
	}
	cited := map[string]review.Evidence{}
	for _, c := range d.Audit.Evidence() {
		cited[c.Path+".quote"] = c.Evidence
	}
	var out []Annotation
	for _, p := range d.Problems {
		e, ok := cited[p.Path]
		if !ok || review.CheckPath(e.Path) != nil {
			continue
		}
		out = append(out, Annotation{Path: e.Path, StartLine: 1, EndLine: 1, Level: LevelFailure,
			Title: "Quoted text not found (" + p.Path + ")", Message: fmt.Sprintf("The audit quotes %q from this file, but %s", clip(e.Quote, 200), p.Message)})
	}
	return out
}

// auditConclusion maps the outcome to the run's conclusion and title.
func auditConclusion(head string, d review.Decision) (Conclusion, string) {
	at := gitsha.Short(head)
	switch d.Outcome {
	case review.OutcomeNotRequired:
		return ConclusionSuccess, "No audit required: work unit risk is low"
	case review.OutcomePassed:
		return ConclusionSuccess, "Audit passed at " + at
	case review.OutcomeMissing:
		return ConclusionFailure, "No independent audit of " + at + " yet"
	case review.OutcomeStale:
		return ConclusionFailure, fmt.Sprintf("Audit is for %s, not the head %s", gitsha.Short(d.AuditedSHA), at)
	case review.OutcomeFailed:
		return ConclusionFailure, fmt.Sprintf("Audit failed: %s open", plural(openFindings(d.Findings), "finding", "findings"))
	case review.OutcomeInvalid:
		return ConclusionFailure, fmt.Sprintf("Audit review is invalid: %s", plural(len(d.Problems), "problem", "problems"))
	case review.OutcomeNeedsEvidence:
		n := 0
		if d.Audit != nil {
			n = len(d.Audit.EvidenceRequests)
		}
		return ConclusionActionRequired, fmt.Sprintf("Action required: the auditor needs evidence (%s)", plural(n, "request", "requests"))
	case review.OutcomeOwner:
		return ConclusionActionRequired, "Action required: " + ownerTitle(d.OwnerGate)
	}
	return ConclusionFailure, fmt.Sprintf("Audit outcome %q is not known, so it does not pass", d.Outcome)
}

func ownerTitle(g *review.OwnerGate) string {
	switch {
	case g == nil:
		return "the owner decides"
	case g.Cause == review.CausePass:
		return "the owner approves this high-risk change"
	case g.Cause == review.CauseBounds:
		return "the owner decides instead of another attempt"
	}
	return "the owner decides an unresolved dispute"
}

func openFindings(fs []review.OpenFinding) int {
	n := 0
	for _, f := range fs {
		if !f.Closed {
			n++
		}
	}
	return n
}

// auditAnnotations puts each open finding with a location on its lines.
func auditAnnotations(head string, fs []review.OpenFinding) []Annotation {
	var out []Annotation
	for _, f := range fs {
		if f.Closed || f.Location == nil {
			continue
		}
		msg := f.Requirement + "\nRemedy: " + f.Remedy
		if f.Status != review.StatusOpen {
			msg += "\nState: " + findingState(f, "")
		}
		if !strings.EqualFold(f.AuditedSHA, head) {
			msg += fmt.Sprintf("\nFound at %s; the lines may have moved since.", gitsha.Short(f.AuditedSHA))
		}
		out = append(out, Annotation{Path: f.Location.Path, StartLine: f.Location.StartLine, EndLine: f.Location.EndLine,
			Level: severityLevel(f.Severity), Title: fmt.Sprintf("%s (%s)", f.LedgerID, f.Severity), Message: msg})
	}
	return out
}

// severityLevel maps a finding's severity to an annotation level.
func severityLevel(s string) Level {
	switch s {
	case "critical", "high":
		return LevelFailure
	case "medium":
		return LevelWarning
	}
	return LevelNotice
}
