package checks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/gate"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/instructor"
)

// GatesContext is what the gates renderers say about where they are.
type GatesContext struct {
	// Unit is the work unit; PR the pull request (0 on the unit's issue).
	Unit, PR int
	// Owners are the logins who may answer (the repository's owners).
	Owners []string
	// Deciders are who may answer each contract-change gate whose paths
	// have owners of their own (gatelog.Result.Deciders).
	Deciders map[string][]string
	// ContractPaths are the head's changed contract paths, each with who
	// may approve it.
	ContractPaths []ContractPath
	// Prefix starts commands; empty means command.DefaultPrefix.
	Prefix string
	// ControlIssueURL is where project-wide commands go; empty if none yet.
	ControlIssueURL string
	// PRURL is the pull request's page, the run's details link when no
	// blocking gate has one.
	PRURL string
	// Tampered are kept decisions whose source was edited or deleted after
	// aepgate accepted them (gatelog.Result.Tampered).
	Tampered []gatelog.Tamper
	// Fates is what became of each review and command considered for an
	// agent's pull request (nil: no listed agent made it); the summary
	// lists them (fates).
	Fates *instructor.Decision
}

// Gates renders the aepgate/gates check run on head: success when
// nothing blocks, action_required while a HOLD or gate does, with each
// blocker's question, choices, category, who may answer, the exact reply
// to type and a link to where it was opened. It has no buttons: any writer
// can press a button, and an owner's decision is the owner's own comment.
func Gates(head string, c GatesContext, st gate.State, blockers []gate.Blocker) Run {
	r := Run{Name: NameGates, HeadSHA: head}
	var b strings.Builder
	if len(blockers) == 0 {
		r.Conclusion, r.Title = ConclusionSuccess, "No gate or HOLD blocks this merge"
		fmt.Fprintf(&b, "No gate or HOLD blocks the merge of %s.\n", c.subject())
		w := gatesWriter{b: &b, c: c, at: "@", span: plain}
		w.contractPaths()
		w.answered(st)
		tampering(&b, c.Tampered)
		fates(&b, c.Fates)
		r.Summary = b.String() + DocsFooter(r.Name)
		return r
	}
	r.Conclusion, r.Title = ConclusionActionRequired, gatesTitle(blockers)
	w := gatesWriter{b: &b, c: c, at: "@", span: plain}
	fmt.Fprintf(&b, "The merge of %s waits for the owner. Only %s can answer, each in a new comment or review of their own; an edited comment does not count.\n",
		c.subject(), w.answerers(blockers))
	w.contractPaths()
	w.blockers(st, blockers)
	w.answered(st)
	tampering(&b, c.Tampered)
	fates(&b, c.Fates)
	r.Summary = b.String() + DocsFooter(r.Name)
	r.DetailsURL = c.PRURL
	if g, ok := findGate(st, blockers[0].GateID); ok && isURL(g.Evidence) {
		r.DetailsURL = g.Evidence
	}
	return r
}

// gatesTitle counts HOLDs and gates: "Blocked: 1 HOLD, 2 open gates".
func gatesTitle(bs []gate.Blocker) string {
	holds := 0
	for _, b := range bs {
		if isHold(b.GateID) {
			holds++
		}
	}
	var parts []string
	if holds > 0 {
		parts = append(parts, plural(holds, "HOLD", "HOLDs"))
	}
	if n := len(bs) - holds; n > 0 {
		parts = append(parts, plural(n, "gate", "gates"))
	}
	return "Blocked by " + strings.Join(parts, " and ")
}

// gatesWriter writes the gates' Markdown. at prefixes logins: "@" in a
// check run (which notifies nobody), "" in a comment (where a mention
// would notify each owner on every update). span renders what people
// wrote (logins, questions, reasons): plain in a check run, a code span in
// a comment, where an echoed mention would notify.
type gatesWriter struct {
	b    *strings.Builder
	c    GatesContext
	at   string
	span func(string) string
}

// plain is the span of a check run: the text as it is.
func plain(s string) string { return s }

// login is how the writer shows a login; a team ("@org/team") keeps its
// own "@".
func (w gatesWriter) login(l string) string {
	if strings.HasPrefix(l, "@") {
		return w.span(l)
	}
	return w.span(w.at + l)
}

// blockers writes one section per blocker.
func (w gatesWriter) blockers(st gate.State, bs []gate.Blocker) {
	for i, bl := range bs {
		g, known := findGate(st, bl.GateID)
		if !known {
			fmt.Fprintf(w.b, "\n### %d. %s\n\n%s\n", i+1, cell(bl.Token), w.reason(bl.Reason))
			continue
		}
		fmt.Fprintf(w.b, "\n### %d. %s\n\n", i+1, w.question(g.Question))
		table(w.b, []string{"Field", "Value"}, append(w.rows(g, bl), w.countRows(st, g.GateID)...))
	}
}

// rows are the facts of one blocking gate.
func (w gatesWriter) rows(g gate.Gate, bl gate.Blocker) [][]string {
	choices := make([]string, len(g.Choices))
	for i, ch := range g.Choices {
		choices[i] = code(ch)
	}
	rows := [][]string{
		{"Gate", code(g.GateID)},
		{"Choices", strings.Join(choices, ", ")},
		{"Category", g.OwnerOnlyCategory},
		{"Blocks", scopeText(g)},
		{"Who may answer", w.whoMayAnswer(g.GateID)},
	}
	if bl.Choice != nil {
		rows = append(rows, []string{"Answered", fmt.Sprintf("%s by %s, which keeps it blocking (the safe default or HOLD); a new gate is needed to decide again", code(*bl.Choice), w.login(g.ResolvedBy))})
	} else {
		rows = append(rows, []string{"Reply", w.reply(g)})
	}
	return append(rows, []string{"Opened", w.opened(g)})
}

// reply is the exact text the owner types, and where.
func (w gatesWriter) reply(g gate.Gate) string {
	p := prefix(w.c.Prefix)
	if isHold(g.GateID) {
		return code(p+" "+command.VerbResume) + " " + w.where(g)
	}
	forms := make([]string, len(g.Choices))
	for i, ch := range g.Choices {
		forms[i] = code(p + " " + command.VerbResolve + " " + g.GateID + " " + ch)
	}
	out := strings.Join(forms, " or ") + " " + w.where(g)
	if g.BlockingScope == gate.ScopeMerge && slices.Contains(g.Choices, gatelog.ChoiceApprove) {
		out += "; an owner's approving review at the pull request's current head also answers " + code(gatelog.ChoiceApprove)
	}
	return out
}

// where says on which thread the reply counts.
func (w gatesWriter) where(g gate.Gate) string {
	if g.WorkUnit != nil {
		return fmt.Sprintf("on work unit #%s's issue or one of its pull requests", *g.WorkUnit)
	}
	if w.c.ControlIssueURL != "" {
		return "on [the control issue](" + w.c.ControlIssueURL + ")"
	}
	return "on the control issue (label `aepgate:control`)"
}
