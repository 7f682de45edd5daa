package verdict

import (
	"slices"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/ledger"
)

// unjudged plans the answer to an item with commands while the config's
// people cannot be resolved (ev.Unresolved): 👀 on a comment (seen, not
// acted on: neither 👍 nor 👎 would be true), a ledger row, and one reply
// saying why (checks.UnjudgedReply). It records no answered row, so the
// sweep answers the item as usual once the gates can be judged. ok is
// false when the item holds no command the gate log judges (`close`,
// `accept` and `merge` have their own judges, which answer them).
func (p AnswerPlan) unjudged(at Origin, ev *Evaluation, review bool) (AnswerPlan, bool) {
	body, prefix := itemBody(ev, p.Thread, p.Item), command.DefaultPrefix
	if cfg, err := Config(ev.Snap.Config); err == nil {
		prefix = cfg.CommandPrefix
	}
	if !slices.ContainsFunc(command.Parse(body, prefix), gateCommand) {
		return p, false
	}
	if !review {
		p.React = []string{"eyes"}
	}
	p.Rows = []ledger.Entry{{Kind: "command:unjudged", DeliveryID: at.Delivery, Subject: AnsweredSubject(at, p.Item) + "/unjudged",
		Body: map[string]any{"item": p.Item, "thread": p.Thread.Number, "reason": ev.Unresolved}}}
	if AppComment(ev, p.Thread.Conv, checks.UnjudgedMarker(p.Item)) == nil {
		p.Reply = checks.UnjudgedReply(p.Item, AuthorOf(ev.Snap, p.Item), ev.Unresolved)
	}
	return p, true
}

// gateCommand reports whether c is judged by the gate log.
func gateCommand(c command.Command) bool {
	return c.Verb != command.VerbClose && c.Verb != command.VerbAccept && c.Verb != command.VerbMerge
}

// itemBody is the text of comment or review id in thread th.
func itemBody(ev *Evaluation, th Thread, id int64) string {
	for _, c := range th.Conv.Comments {
		if c.ID == id {
			return c.Body
		}
	}
	if p := ev.Snap.Pull; p != nil {
		for _, r := range p.Reviews {
			if r.ID == id {
				return r.Body
			}
		}
	}
	return ""
}
