package gate

import (
	"slices"

	"github.com/aepgate/aepgate/protocol/approval"
)

// ResultCounted is the result of an owner's answer to a gate whose
// category needs more distinct owners than have answered with that choice
// (Log.Approvals): the answer counts, the gate stays open.
const ResultCounted = "counted"

// counter holds, for the gates whose category needs more than one owner,
// the answers each choice has had (Log.Approvals, Log.Distinct).
type counter struct {
	need     map[string]int
	distinct approval.Rules
	answers  map[string]map[string][]approval.Answer
}

// counted adds answer e to gate g's count when g's category needs more
// than one distinct owner: held is true while the owners who answered
// with e's choice are fewer than needed (the gate stays open, the outcome
// says who answered and how many more must). An answer adding no
// distinct person (the same owner again, or one joined to them by
// Log.Distinct's rules) is refused. The safe default needs one owner: an
// answer that keeps the gate blocking opens nothing.
func (r *replayer) counted(g *Gate, e Event, choice string) (Outcome, bool) {
	need := r.count.need[g.OwnerOnlyCategory]
	if need < 2 || choice == g.SafeDefault || choice == holdDefault {
		return Outcome{}, false
	}
	if r.count.answers == nil {
		r.count.answers = map[string]map[string][]approval.Answer{}
	}
	if r.count.answers[g.GateID] == nil {
		r.count.answers[g.GateID] = map[string][]approval.Answer{}
	}
	before := r.count.answers[g.GateID][choice]
	answers := append(slices.Clone(before), approval.Answer{Login: e.Actor})
	t := approval.Count(answers, need, r.count.distinct)
	if len(t.People) == len(approval.Count(before, need, r.count.distinct).People) {
		return refused(g.GateID, "answer-not-distinct", "gate %s needs %d distinct owners to answer %q, and %s already counted: %s",
			g.GateID, need, choice, e.Actor, t.Reason()), true
	}
	r.count.answers[g.GateID][choice] = answers
	if r.st.Counts == nil {
		r.st.Counts = map[string][]Count{}
	}
	r.st.Counts[g.GateID] = setCount(r.st.Counts[g.GateID], Count{Choice: choice, Tally: t})
	if t.Satisfied() {
		return Outcome{}, false
	}
	return Outcome{GateID: g.GateID, Result: ResultCounted, Message: t.Reason()}, true
}

// Count is how the answers with one choice of a gate needing more than
// one owner count (Log.Approvals).
type Count struct {
	Choice string `json:"choice"`
	approval.Tally
}

// setCount replaces the count of c's choice in cs, or appends it.
func setCount(cs []Count, c Count) []Count {
	for i := range cs {
		if cs[i].Choice == c.Choice {
			cs[i] = c
			return cs
		}
	}
	return append(cs, c)
}
