package checks

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/gate"
	"github.com/aepgate/aepgate/protocol/gatelog"
)

// maxQuestion bounds a question shown on one line (the aep-gate block
// allows 800 characters).
const maxQuestion = 800

// answered lists the gates the owner has answered, if any.
func (w gatesWriter) answered(st gate.State) {
	var rows [][]string
	for _, g := range st.Gates {
		if g.State == gate.StateResolved && g.Choice != nil {
			rows = append(rows, []string{code(g.GateID), w.span(oneLine(g.Question, maxQuestion)), code(*g.Choice), w.login(g.ResolvedBy), link("answer", deref(g.AuthorityEvidence))})
		}
	}
	if len(rows) == 0 {
		return
	}
	w.b.WriteString("\n### Answered\n\n")
	table(w.b, []string{"Gate", "Question", "Answer", "By", "Where"}, rows)
}

func (c GatesContext) subject() string {
	switch {
	case c.PR > 0 && c.Unit > 0:
		return fmt.Sprintf("pull request #%d (work unit #%d)", c.PR, c.Unit)
	case c.PR > 0:
		return fmt.Sprintf("pull request #%d", c.PR)
	case c.Unit > 0:
		return fmt.Sprintf("work unit #%d", c.Unit)
	}
	return "the project's pull requests"
}

// opened says who opened a gate and links to where.
func (w gatesWriter) opened(g gate.Gate) string {
	switch {
	case strings.HasPrefix(g.GateID, gatelog.ContractPrefix):
		return "by aepgate, because this head changes contract paths"
	case isURL(g.Evidence):
		return link("by "+w.login(g.CreatedBy), g.Evidence)
	case g.CreatedBy != "":
		return "by " + w.login(g.CreatedBy)
	}
	return "–"
}

func scopeText(g gate.Gate) string {
	switch {
	case g.BlockingScope == gate.ScopeProject:
		return "every action of every work unit (project)"
	case g.WorkUnit != nil && g.BlockingScope == gate.ScopeWorkUnit:
		return fmt.Sprintf("every action of work unit #%s", *g.WorkUnit)
	case g.WorkUnit != nil:
		return fmt.Sprintf("%s of work unit #%s", g.BlockingScope, *g.WorkUnit)
	}
	return g.BlockingScope
}

func findGate(st gate.State, id string) (gate.Gate, bool) {
	for _, g := range st.Gates {
		if g.GateID == id {
			return g, true
		}
	}
	return gate.Gate{}, false
}

func isHold(id string) bool {
	return strings.HasPrefix(id, gate.HoldID) || strings.HasPrefix(id, gatelog.UnitHoldPrefix)
}

func (w gatesWriter) owners() string {
	if len(w.c.Owners) == 0 {
		return "the owners (none are listed in the repository config)"
	}
	out := make([]string, len(w.c.Owners))
	for i, s := range w.c.Owners {
		out[i] = w.login(s)
	}
	return strings.Join(out, ", ")
}

func prefix(p string) string {
	if p == "" {
		return command.DefaultPrefix
	}
	return p
}

// link is a Markdown link, or the text alone when url is not http(s).
func link(text, url string) string {
	if !isURL(url) {
		return text
	}
	return "[" + text + "](" + url + ")"
}

func isURL(s string) bool {
	return (strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "http://")) && !strings.ContainsAny(s, " ()<>\n")
}

// question shows a gate's question as a heading's text: in a comment a
// code span (it may quote a HOLD's reason), in a check run escaped for the
// table-free heading as before.
func (w gatesWriter) question(q string) string {
	q = oneLine(q, maxQuestion)
	if w.at == "" {
		return w.span(q)
	}
	return cell(q)
}

// reason shows a blocker's reason: what it quotes as spans in a comment.
func (w gatesWriter) reason(r string) string {
	if w.at == "" {
		return echoReason(r, w.span)
	}
	return r
}
