package checks

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/gate"
)

// countRows are the rows of a gate whose category needs more than one
// owner (gate.State.Counts): per choice answered, who answered and how
// many more distinct owners must.
func (w gatesWriter) countRows(st gate.State, id string) [][]string {
	var rows [][]string
	for _, c := range st.Counts[id] {
		rows = append(rows, []string{"Owners answered", w.countText(c)})
	}
	return rows
}

// countText says how one choice's answers count: "1 of 2 owners answered
// `approve`: @alice; needs another owner".
func (w gatesWriter) countText(c gate.Count) string {
	var who []string
	for _, p := range c.People {
		var ls []string
		for _, l := range p {
			ls = append(ls, w.login(l))
		}
		who = append(who, strings.Join(ls, "/"))
	}
	s := fmt.Sprintf("%d of %d owners answered %s: %s", len(c.People), c.Need, code(c.Choice), strings.Join(who, ", "))
	if len(c.Joined) > 0 {
		s += " (" + w.span(strings.Join(c.Joined, "; ")) + ")"
	}
	switch m := c.Missing(); {
	case m == 1:
		s += "; needs another owner"
	case m > 1:
		s += fmt.Sprintf("; needs %d more owners", m)
	}
	return s
}
