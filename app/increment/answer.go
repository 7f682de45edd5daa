package increment

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/incrementrules"
	"github.com/aepgate/aepgate/protocol/login"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// AcceptAnsweredSubject names the ledger row saying the App answered the
// `accept` lines of comment id (apart from the gate log's answer to the
// same comment, verdict.AnsweredSubject).
func AcceptAnsweredSubject(in Input, id int64) string {
	return verdict.AnsweredSubject(origin(in), id) + "/accept"
}

func origin(in Input) verdict.Origin {
	return verdict.Origin{Delivery: in.Delivery, Event: in.Event, Owner: in.Owner, Repo: in.Repo}
}

// answer answers each control-thread comment with `accept` lines once,
// as every command is answered (app/gates/answer.go): a ledger row per line,
// 👍 when one was accepted, 👎 and one reply (checks.RefusalReply: why,
// and the command that would count) when one was refused, then the row
// saying it was answered. answers are the milestones' (rules.Answers);
// with known (the milestones judged, when every open one was) the lines
// no milestone answered are refused too (rules.Unanswerable). GitHub
// writes only: a reaction per comment, a reply per refused one.
func (j *Judge) answer(ctx context.Context, in Input, snap *snapshot.PR, answers []incrementrules.Answer, known []int) error {
	cfg, err := verdict.Config(snap.Config)
	if err != nil || snap.Control == nil {
		return nil // an invalid config decides nothing; aepgate/config shows it
	}
	if known != nil {
		answers = append(answers, incrementrules.Unanswerable(j.authored(snap.Control.Thread), cfg.CommandPrefix, known)...)
	}
	if len(answers) == 0 {
		return nil
	}
	unlock, err := j.Store.Lock(ctx, "increment-answers:"+in.Owner+"/"+in.Repo)
	if err != nil {
		return err
	}
	defer unlock()
	slices.SortStableFunc(answers, func(a, b incrementrules.Answer) int { return cmp.Compare(a.CommentID, b.CommentID) })
	for i := 0; i < len(answers); {
		k := i
		for k < len(answers) && answers[k].CommentID == answers[i].CommentID {
			k++
		}
		if err := j.answerComment(ctx, in, snap, cfg.CommandPrefix, answers[i:k]); err != nil {
			return err
		}
		i = k
	}
	return nil
}

// authored are the thread's comments but the App's own, as the increment
// reads them (no permission: Unanswerable refuses on the line alone).
func (j *Judge) authored(t snapshot.Thread) []incrementrules.Comment {
	var out []incrementrules.Comment
	for _, c := range t.Comments {
		if !login.Equal(c.Author.Login, j.AppLogin) {
			out = append(out, incrementrules.Comment{ID: c.ID, Body: c.Body, Author: closurerules.Actor{Login: c.Author.Login, Type: c.Author.Type},
				Created: c.Created, Updated: c.Updated})
		}
	}
	return out
}

// answerComment answers one comment's accept lines, unless the ledger
// says it was answered.
func (j *Judge) answerComment(ctx context.Context, in Input, snap *snapshot.PR, prefix string, as []incrementrules.Answer) error {
	id, thread := as[0].CommentID, snap.Control.Number
	done, err := j.W.Has(ctx, AcceptAnsweredSubject(in, id))
	if err != nil || done {
		return err
	}
	ev := &verdict.Evaluation{Snap: snap}
	var accepted, refused []gatelog.Outcome
	for _, a := range as {
		o := gatelog.Outcome{ItemID: id, Line: a.Line, Command: a.Raw, Action: command.VerbAccept, Accepted: a.Accepted, Reason: a.Reason}
		if a.Malformed {
			o.Action = "" // the reply then lists the commands
		}
		if err := j.W.Record(ctx, verdict.CommandEntry(origin(in), ev, thread, o)); err != nil {
			return err
		}
		if o.Accepted {
			accepted = append(accepted, o)
		} else {
			refused = append(refused, o)
		}
	}
	if err := j.react(ctx, in, id, len(accepted) > 0, len(refused) > 0); err != nil {
		return err
	}
	if len(refused) > 0 {
		if _, err := j.Src.Comment(ctx, in.Owner, in.Repo, thread, checks.RefusalReply(id, as[0].Author, prefix, refused)); err != nil {
			return fmt.Errorf("reply to comment %d: %w", id, err)
		}
	}
	return j.W.Record(ctx, store.Entry{Kind: "answered", DeliveryID: in.Delivery, Subject: AcceptAnsweredSubject(in, id),
		Body: map[string]any{"item": id, "thread": thread, "accepted": len(accepted), "refused": len(refused)}})
}

// react puts 👍 on comment id when a line was accepted, 👎 when one was
// refused.
func (j *Judge) react(ctx context.Context, in Input, id int64, up, down bool) error {
	for _, r := range []struct {
		on      bool
		content string
	}{{up, "+1"}, {down, "-1"}} {
		if !r.on {
			continue
		}
		if err := j.Src.React(ctx, in.Owner, in.Repo, id, r.content); err != nil {
			return fmt.Errorf("react to comment %d: %w", id, err)
		}
	}
	return nil
}
