package checks

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/gitsha"
	"github.com/aepgate/aepgate/review"
)

// auditWriter writes the sections of the audit summary.
type auditWriter struct {
	b    *strings.Builder
	head string
}

// facts is the table of what was judged.
func (w auditWriter) facts(c AuditContext, d review.Decision) {
	unit := "–"
	if c.Unit > 0 {
		unit = fmt.Sprintf("#%d", c.Unit)
	}
	rows := [][]string{{"Work unit", fmt.Sprintf("%s (risk %s)", unit, orDash(c.Risk))}}
	if d.Review != nil {
		verdict := "–"
		if d.Audit != nil && d.Audit.Verdict != "" {
			verdict = d.Audit.Verdict
		}
		rows = append(rows,
			[]string{"Verdict", verdict},
			[]string{"Auditor", link("@"+d.Review.Author.Login, d.Review.URL)},
			[]string{"Audited commit", code(d.AuditedSHA)},
			[]string{"Evidence bundle", bundleCell(d)})
	}
	rows = append(rows, []string{"Head", code(w.head)})
	w.b.WriteString("\n")
	table(w.b, []string{"Field", "Value"}, rows)
}

func bundleCell(d review.Decision) string {
	if d.BundleID == "" {
		return "not checked"
	}
	return code(d.BundleID) + " (SHA-256 over the sorted sha256sum lines of the quoted files)"
}

func orDash(s string) string {
	if s == "" {
		return "not set"
	}
	return s
}

// problems lists why the review is invalid.
func (w auditWriter) problems(ps review.Problems) {
	if len(ps) == 0 {
		return
	}
	w.b.WriteString("\n### Problems\n\n")
	for _, p := range ps {
		fmt.Fprintf(w.b, "- %s: %s\n", code(p.Path), escapeHTML(oneLine(p.Message, 800)))
	}
}

// requests lists the evidence the auditor asked for.
func (w auditWriter) requests(d review.Decision) {
	if d.Outcome != review.OutcomeNeedsEvidence || d.Audit == nil {
		return
	}
	w.b.WriteString("\n### Evidence requested\n\n")
	for _, r := range d.Audit.EvidenceRequests {
		fmt.Fprintf(w.b, "- %s\n", escapeHTML(oneLine(r, 800)))
	}
}

// owner shows the owner gate the App opens.
func (w auditWriter) owner(g *review.OwnerGate) {
	if g == nil {
		return
	}
	choices := make([]string, len(g.Choices))
	for i, ch := range g.Choices {
		choices[i] = code(ch)
	}
	w.b.WriteString("\n### Owner decision\n\n")
	table(w.b, []string{"Field", "Value"}, [][]string{
		{"Gate", code(g.ID)},
		{"Question", escapeHTML(oneLine(g.Question, maxQuestion))},
		{"Choices", strings.Join(choices, ", ") + " (safe default " + code(g.SafeDefault) + ")"},
		{"Category", g.Category},
		{"How to answer", "as the " + code(NameGates) + " check shows: only an owner's own comment or review counts"},
	})
}

// findings is the ledger: every finding and its state.
func (w auditWriter) findings(fs []review.OpenFinding) {
	if len(fs) == 0 {
		return
	}
	w.b.WriteString("\n### Findings\n\n")
	var rows [][]string
	for _, f := range fs {
		rows = append(rows, []string{code(f.LedgerID), f.Severity, escapeHTML(oneLine(f.Requirement, 300)), location(f, w.head), findingState(f, "@")})
	}
	table(w.b, []string{"Finding", "Severity", "Requirement", "Location", "State"}, rows)
}

// location is "path lines 3–4", with the commit when it is not the head.
func location(f review.OpenFinding, head string) string {
	if f.Location == nil {
		return "–"
	}
	s := code(f.Location.Path) + " line " + fmt.Sprint(f.Location.StartLine)
	if f.Location.EndLine != f.Location.StartLine {
		s = fmt.Sprintf("%s lines %d–%d", code(f.Location.Path), f.Location.StartLine, f.Location.EndLine)
	}
	if !strings.EqualFold(f.AuditedSHA, head) {
		s += " at " + code(gitsha.Short(f.AuditedSHA))
	}
	return s
}

// findingState says where a finding stands and who moved it last.
func findingState(f review.OpenFinding, at string) string {
	switch f.Status {
	case review.StatusClosed:
		return fmt.Sprintf("closed (%s) by %s", f.Disposition, at+f.By)
	case review.StatusProposed:
		if f.Refused != "" {
			return fmt.Sprintf("open; %s proposed by %s; %s", f.Disposition, at+f.By, f.Refused)
		}
		return fmt.Sprintf("open; %s proposed by %s, waiting for an auditor's judgement", f.Disposition, at+f.By)
	case review.StatusRejected:
		return fmt.Sprintf("open; %s proposed by %s, rejected by an auditor", f.Disposition, at+f.By)
	}
	return "open"
}

// ignored lists the reviews and dispositions that do not count.
func (w auditWriter) ignored(is []review.Ignored) {
	if len(is) == 0 {
		return
	}
	w.b.WriteString("\n### Not counted\n\n")
	var rows [][]string
	for _, ig := range is {
		what := fmt.Sprintf("review %d", ig.ReviewID)
		if ig.ReviewID == 0 {
			what = fmt.Sprintf("dispose comment %d", ig.CommentID)
		}
		who := "–"
		if ig.Author != "" {
			who = "@" + ig.Author
		}
		rows = append(rows, []string{link(what, ig.URL), who, escapeHTML(ig.Reason)})
	}
	table(w.b, []string{"What", "Author", "Why"}, rows)
}
