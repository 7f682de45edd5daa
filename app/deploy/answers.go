package deploy

import (
	"context"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/deployrules"
	"github.com/aepgate/aepgate/protocol/gatelog"
)

// answerGate answers, once each, the control-issue comments that answer
// d's deploy gate (the comment answerer leaves them to this judge:
// verdict.Deferred): 👍 for one that counts in the replay d is judged
// under, 👎 and one reply saying why for one that does not, then the
// ledger row saying it was answered (verdict.AnsweredSubject, so neither
// a redelivery nor the sweep answers it again). A comment answering a
// deployment GitHub no longer waits on is judged by no one and answered by
// no one.
func (j *Judge) answerGate(ctx context.Context, in Input, d store.Deploy, f facts) error {
	if f.control == nil || f.Config == nil {
		return nil
	}
	id := deployrules.GateID(d.Environment, d.RunID)
	at := verdict.Origin{Delivery: in.Delivery, Event: in.Event, Owner: in.Owner, Repo: in.Repo}
	seen := map[int64]bool{}
	for _, o := range f.outcomes {
		if o.GateID != id || o.Implicit || o.Review || seen[o.ItemID] {
			continue
		}
		seen[o.ItemID] = true
		if err := j.answerItem(ctx, in, at, f, o); err != nil {
			return err
		}
	}
	return nil
}

// answerItem answers one comment's answer o to a deploy gate, unless the
// ledger says it was answered.
func (j *Judge) answerItem(ctx context.Context, in Input, at verdict.Origin, f facts, o gatelog.Outcome) error {
	subject := verdict.AnsweredSubject(at, o.ItemID)
	done, err := j.W.Has(ctx, subject)
	if err != nil || done {
		return err
	}
	content := "+1"
	if !o.Accepted {
		content = "-1"
	}
	if err := j.Src.React(ctx, in.Owner, in.Repo, o.ItemID, content); err != nil {
		return err
	}
	if !o.Accepted {
		author := ""
		for _, c := range f.control.Thread.Comments {
			if c.ID == o.ItemID {
				author = c.Author.Login
			}
		}
		if _, err := j.Src.Comment(ctx, in.Owner, in.Repo, f.control.Number, checks.RefusalReply(o.ItemID, author, f.Config.CommandPrefix, []gatelog.Outcome{o})); err != nil {
			return err
		}
	}
	return j.W.Record(ctx, store.Entry{Kind: "answered", DeliveryID: in.Delivery, Subject: subject,
		Body: map[string]any{"item": o.ItemID, "thread": f.control.Number, "gate": o.GateID, "accepted": o.Accepted, "reason": o.Reason}})
}
