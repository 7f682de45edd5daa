package gatelog

import (
	"fmt"
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
// unit that offer "approve" and were open when it was submitted (as the
// first replay st says) and that the rules let it answer (ApprovalOwnPR:
// only its own pull request's), and records an outcome per gate. A review
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
			o := Outcome{ItemID: it.ID, Review: true, Command: "review: " + ReviewApproved, Action: ActionApprove, GateID: g.GateID, Implicit: true}
			why := ap.refused
			if why == "" {
				why = check(b.rules, b.answering(it, g))
			}
			if why != "" {
				o.Reason = why
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

// approvable reports whether review it may answer gate g: a merge-scope
// gate of this unit offering approve, open when the review was submitted,
// and not another pull request's own gate (contract change, audit
// decision), which never concerns it. The rules then decide
// (ApprovalOwnPR).
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

// noteOrigin remembers the thread an item opened gate id on; the first
// create counts, as in Replay.
func (b *builder) noteOrigin(id string, src Source) {
	if b.origins == nil {
		b.origins = map[string]Source{}
	}
	if _, seen := b.origins[id]; !seen {
		b.origins[id] = src
	}
}

// answering is the attempt of approving review it to answer gate g, with
// where g was opened: its pull request for a pull request's own gate, the
// item's thread for an aep-gate block, nil when unknown.
func (b *builder) answering(it *Item, g gate.Gate) Attempt {
	t := &Target{Unit: g.WorkUnit, Deciders: b.deciders[g.GateID]}
	if pr, ok := b.contractPR[g.GateID]; ok {
		t.Origin = &Source{Kind: PullRequest, Number: pr}
	} else if src, ok := b.origins[g.GateID]; ok {
		t.Origin = &src
	}
	return Attempt{Item: *it, Action: ActionApprove, GateID: g.GateID, Target: t, In: b.in}
}

// ApprovalOwnPR lets an approving review answer only a gate opened on its
// own pull request (an aep-gate block posted there, or the pull request's
// own contract-change or audit gate): the owner approved that diff, not
// another one. A gate opened on the unit's issue or on a sibling pull
// request is answered with "/aep resolve <id> approve", in a comment or in
// the review's body.
func ApprovalOwnPR(a Attempt) string {
	if a.Action != ActionApprove || a.Target == nil {
		return ""
	}
	o := a.Target.Origin
	if o != nil && o.Kind == PullRequest && o.Number == a.Item.Source.Number {
		return ""
	}
	where := "an unknown thread"
	switch {
	case o == nil:
	case o.Kind == PullRequest:
		where = fmt.Sprintf("pull request #%d", o.Number)
	case o.Kind == UnitIssue:
		where = fmt.Sprintf("the unit's issue #%d", o.Number)
	default:
		where = fmt.Sprintf("issue #%d", o.Number)
	}
	return fmt.Sprintf("gate %s was opened on %s, not on this pull request (#%d); an approving review answers only its own pull request's gates, because it approves this diff: answer the gate with `%s resolve %s approve`",
		a.GateID, where, a.Item.Source.Number, prefixOr(a.In.Policy.Prefix), a.GateID)
}
