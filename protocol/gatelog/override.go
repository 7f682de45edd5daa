package gatelog

import (
	"fmt"
	"strings"
	"time"

	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/gate"
	"github.com/aepgate/aepgate/protocol/gitsha"
)

// Override is an owner's accepted "/aep override <check> <reason>"
// (docs/merge.md): the check concludes success at one head of one pull
// request. It is a kept grant: an edit or deletion of its comment cancels
// it (TamperedGrant), a new push ends it, and a HOLD suspends it.
type Override struct {
	ItemID int64
	URL    string
	// PR is the pull request it was posted on, Head that pull request's
	// head when the App first accepted it.
	PR   int
	Head string
	// Check is the aepgate check it names; Reason the owner's reason.
	Check, Reason string
	Owner         string
	At            time.Time
	// Ended says why it no longer applies; "" while it does.
	Ended string
}

// override records an accepted override of item it, bound to its pull
// request's head (kept with the item once the App keeps it), or refuses
// it: posted elsewhere than on an open pull request, or while a HOLD is in
// force (only resume lifts a HOLD).
func (b *builder) override(it *Item, c *command.Command, ref int) {
	out := &b.outcomes[ref]
	head := headOf(b.in, it.Source.Number)
	refuse := func(why string) { out.Accepted, out.Reason = false, why }
	switch {
	case it.Source.Kind != PullRequest:
		refuse("an override is posted on the pull request whose check it overrides, not on an issue")
		return
	case b.unitHold != "" || b.projectHold:
		refuse(command.OverrideRefusal(true))
		return
	case it.Head == "" && head == "":
		refuse(fmt.Sprintf("pull request #%d is not open here, so it has no head to override a check at", it.Source.Number))
		return
	case it.Head == "":
		it.Head = head
	}
	o := Override{ItemID: it.ID, URL: it.URL, PR: it.Source.Number, Head: it.Head, Check: c.Check, Reason: c.Reason, Owner: it.Author, At: it.Created}
	out.Reason = fmt.Sprintf("%s overridden at head %s of #%d", c.Check, gitsha.Short(o.Head), o.PR)
	if head != "" && head != o.Head {
		o.Ended = fmt.Sprintf("a new push ended it: the head of #%d moved from %s to %s", o.PR, gitsha.Short(o.Head), gitsha.Short(head))
		out.Reason += "; " + o.Ended
	}
	b.overrides = append(b.overrides, o)
}

// InForce are the overrides that apply to pull request pr at head, by the
// check they name (the newest of each): none while a HOLD blocks the unit
// or the project, since an override never lifts a HOLD.
func (r Result) InForce(pr int, head string) map[string]Override {
	for _, bl := range r.Blockers {
		if strings.HasPrefix(bl.GateID, gate.HoldID) || strings.HasPrefix(bl.GateID, UnitHoldPrefix) {
			return nil
		}
	}
	var out map[string]Override
	for _, o := range r.Overrides {
		if o.Ended != "" || o.PR != pr || o.Head != head {
			continue
		}
		if out == nil {
			out = map[string]Override{}
		}
		out[o.Check] = o
	}
	return out
}
