package gatelog

import (
	"slices"

	"github.com/aepgate/aepgate/protocol/gate"
)

// approval is an approving review, with where its answers go in the event
// list and why the rules refused it ("" when they did not).
type approval struct {
	pos     int
	seq     int
	item    *Item
	refused string
}

// inserted is an event to insert before position pos of the first pass.
type inserted struct {
	pos int
	ev  gate.Event
	ref int
}

// approve answers, for each approving review, the merge-scope gates of its
// pull request that offer "approve" and were open when it was submitted
// (as the first replay st says), and records an outcome per gate. A review
// with no such gate records nothing.
func (b *builder) approve(st gate.State) []inserted {
	var out []inserted
	for _, ap := range b.approvals {
		it := ap.item
		b.seq = ap.seq
		for _, g := range st.Gates {
			if !b.approvable(g, it) {
				continue
			}
			o := Outcome{ItemID: it.ID, Command: "review: " + ReviewApproved, Action: ActionApprove, GateID: g.GateID, Implicit: true}
			if ap.refused != "" {
				o.Reason = ap.refused
				b.record(o)
				continue
			}
			o.Accepted = true
			ref := b.record(o)
			ev := gate.Event{Type: gate.EventResolve, Time: it.Created, Actor: it.Author, Authority: gate.AuthorityDirectOwner,
				Evidence: it.URL, GateID: g.GateID, Choice: ChoiceApprove}
			out = append(out, inserted{pos: ap.pos, ev: ev, ref: ref})
		}
	}
	return out
}

// approvable reports whether review it answers gate g: a merge-scope gate
// of this unit offering approve, open when the review was submitted, and
// not another pull request's contract-change gate.
func (b *builder) approvable(g gate.Gate, it *Item) bool {
	if g.BlockingScope != gate.ScopeMerge || g.WorkUnit == nil || *g.WorkUnit != b.unit || !slices.Contains(g.Choices, ChoiceApprove) {
		return false
	}
	if pr, ok := b.contractPR[g.GateID]; ok && pr != it.Source.Number {
		return false
	}
	at := it.Created.UnixMilli()
	return g.CreatedAt <= at && (g.State == gate.StateOpen || (g.ResolvedAt != nil && *g.ResolvedAt > at))
}

// insert returns events and refs with ins placed before their positions
// (ins is in position order).
func insert(events []gate.Event, refs []int, ins []inserted) ([]gate.Event, []int) {
	evs := make([]gate.Event, 0, len(events)+len(ins))
	rs := make([]int, 0, len(events)+len(ins))
	k := 0
	for i := 0; i <= len(events); i++ {
		for ; k < len(ins) && ins[k].pos == i; k++ {
			evs, rs = append(evs, ins[k].ev), append(rs, ins[k].ref)
		}
		if i < len(events) {
			evs, rs = append(evs, events[i]), append(rs, refs[i])
		}
	}
	return evs, rs
}
