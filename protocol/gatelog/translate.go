package gatelog

import (
	"fmt"
	"sort"
	"strings"

	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/gate"
	"github.com/aepgate/aepgate/protocol/login"
)

// request is one command line or aep-gate block of an item.
type request struct {
	line int
	cmd  *command.Command
	spec *command.GateSpec
	n    int    // the block's 1-based position among the item's blocks
	bad  string // why the block was refused, when it was
}

// item translates one comment or review.
func (b *builder) item(it *Item) {
	if login.Equal(it.Author, b.in.AppLogin) {
		return
	}
	for _, r := range requests(it.Body, b.in.Policy.Prefix) {
		b.request(it, r)
	}
	if it.Event == EventReview && it.Review != nil && it.Review.State == ReviewApproved {
		a := Attempt{Item: *it, Action: ActionApprove, In: b.in}
		b.approvals = append(b.approvals, approval{pos: len(b.events), seq: b.seq, item: it, refused: check(b.rules, a)})
	}
}

// requests returns an item's commands and gate blocks in line order.
func requests(body, prefix string) []request {
	var out []request
	cmds := command.Parse(body, prefix)
	for i := range cmds {
		switch cmds[i].Verb {
		case command.VerbDispose, command.VerbClose, command.VerbWaive, command.VerbAccept, command.VerbAcceptMerge, command.VerbMerge:
			continue // the audit's business (review.Dispositions), the closure's (protocol/closurerules), the readback's (protocol/merge; waive: the retro-audit), the increment's (protocol/incrementrules), the merge's (app/merge)
		}
		out = append(out, request{line: cmds[i].Line, cmd: &cmds[i]})
	}
	if !strings.Contains(body, command.GateInfo) {
		return out
	}
	specs, errs := command.ParseGateBlocks(body)
	for i := range specs {
		out = append(out, request{line: specs[i].Line, spec: &specs[i]})
	}
	bad := map[int][]string{}
	for _, e := range errs {
		if be, ok := e.(*command.BlockError); ok {
			bad[be.Block] = append(bad[be.Block], e.Error())
		}
	}
	for line, msgs := range bad {
		out = append(out, request{line: line, bad: strings.Join(msgs, "; ")})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].line < out[j].line })
	n := 0
	for i := range out {
		if out[i].cmd == nil {
			n++
			out[i].n = n
		}
	}
	return out
}

// request checks one request against the rules and emits its events.
func (b *builder) request(it *Item, r request) {
	o, a, done := b.attempt(it, r)
	if !done {
		if why := check(b.rules, a); why != "" {
			o.Accepted, o.Reason, done = false, why, true
		}
	}
	ref := b.record(o)
	switch {
	case done:
	case r.cmd != nil && r.cmd.Verb == command.VerbOverride:
		b.override(it, r.cmd, ref)
	default:
		b.act(a, r, ref)
	}
}

// attempt reads what a request asks for; done is set (with the outcome's
// reason) when it is malformed and goes no further.
func (b *builder) attempt(it *Item, r request) (o Outcome, a Attempt, done bool) {
	o = Outcome{ItemID: it.ID, Review: it.Event == EventReview, Line: r.line, Command: "aep-gate block", Action: ActionOpenGate, Accepted: true}
	a = Attempt{Item: *it, In: b.in, Action: ActionOpenGate}
	switch {
	case r.cmd != nil && r.cmd.Err != nil:
		o.Command, o.Action, o.Accepted, o.Reason = r.cmd.Raw, r.cmd.Verb, false, r.cmd.Err.Error()
		return o, a, true
	case r.bad != "":
		o.Accepted, o.Reason = false, "the aep-gate block was refused: "+r.bad
		return o, a, true
	case r.cmd != nil:
		o.Command, o.Action, a.Action = r.cmd.Raw, r.cmd.Verb, r.cmd.Verb
		if r.cmd.Verb == command.VerbResolve {
			a.GateID, a.Target = b.target(r.cmd.GateID)
			a.Choice, a.RawID = r.cmd.Choice, r.cmd.GateID
		}
	default:
		a.Scope, a.GateID = r.spec.Scope, r.spec.ID
		if a.GateID == "" {
			a.GateID = fmt.Sprintf("gate-%d-%d", it.ID, r.n)
		}
	}
	o.GateID = a.GateID
	return o, a, false
}

// target cleans a gate id named by resolve and says what is known of the
// gate: its unit from the create event seen, or a project gate for a HOLD.
func (b *builder) target(raw string) (string, *Target) {
	id, err := gate.CleanID(raw)
	if err != nil {
		return raw, nil
	}
	if strings.HasPrefix(id, gate.HoldID) {
		return id, &Target{}
	}
	if wu, ok := b.units[id]; ok {
		return id, &Target{Unit: wu, Deciders: b.deciders[id]}
	}
	return id, nil
}
