package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/login"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/review"
)

// answerer writes the App's answers to commands (gh.Installation).
type answerer interface {
	React(ctx context.Context, owner, repo string, commentID int64, content string) error
	Comment(ctx context.Context, owner, repo string, number int, body string) (int64, error)
	EditComment(ctx context.Context, owner, repo string, id int64, body string) error
	RequestReviews(ctx context.Context, owner, repo string, number int, logins []string) error
	CreateControlIssue(ctx context.Context, owner, repo, title, body string) (number int, url string, err error)
}

// controlIssueTitle and controlIssueBody open the control issue.
const (
	controlIssueTitle = "aepgate control"
	controlIssueBody  = "This issue is where the owners of this repository make project-wide decisions with aepgate: " +
		"`/aep hold <reason>` here stops every pull request of the repository until an owner answers `/aep resume`, " +
		"and an `aep-gate` block with `scope: project` opens a gate that blocks them all. " +
		"aepgate created it (label `aepgate:control`) and reads its comments on every evaluation; see the project's docs/gates.md.\n"
)

// thread is where an item was posted: the issue or pull request number and
// the item's comments (to find the App's earlier reply).
type thread struct {
	number int
	t      snapshot.Thread
}

// findItem locates item id in the snapshot: its thread, and whether it is
// a review (reviews take no reactions).
func findItem(snap *snapshot.PR, unit int, id int64) (th thread, review bool, ok bool) {
	has := func(t snapshot.Thread) bool {
		for _, c := range t.Comments {
			if c.ID == id {
				return true
			}
		}
		return false
	}
	if p := snap.Pull; p != nil {
		if has(p.Conversation) {
			return thread{p.Number, p.Conversation}, false, true
		}
		for _, r := range p.Reviews {
			if r.ID == id {
				return thread{p.Number, p.Conversation}, true, true
			}
		}
	}
	if t, found := snap.UnitComments[unit]; found && has(t) {
		return thread{unit, t}, false, true
	}
	if c := snap.Control; c != nil && has(c.Thread) {
		return thread{c.Number, c.Thread}, false, true
	}
	return thread{}, false, false
}

// answer reacts to comment or review id (👍 when a request in it was
// accepted, 👎 and one reply when one was refused) and records every
// request's outcome in the ledger: planAnswer decides it all from the
// evaluation, applyAnswer writes it. A redelivered event finds the reply
// already there. It returns the item's thread, and whether the item asked
// for the status comment.
func (e *evaluator) answer(ctx context.Context, in evalInput, ev *evaluation, id int64) (thread, bool, error) {
	p, ok := planAnswer(in, ev, id)
	if !ok {
		return p.thread, false, nil
	}
	return p.thread, p.status, e.applyAnswer(ctx, in, p)
}

// answerPlan is what answering one comment or review takes, computed from
// the evaluation alone: the ledger row of each request (written first), the
// reactions, at most one reply, and the row saying it was answered.
type answerPlan struct {
	// item is the comment or review answered, on thread.
	item     int64
	thread   thread
	rows     []store.Entry
	react    []string
	reply    string
	answered *store.Entry
	// status says the item asked for the status comment.
	status bool
}

// planAnswer plans the answer to item id; ok is false when the item is gone
// or in no conversation this evaluation replayed.
func planAnswer(in evalInput, ev *evaluation, id int64) (answerPlan, bool) {
	th, review, ok := findItem(ev.snap, ev.unit, id)
	p := answerPlan{item: id, thread: th}
	if !ok || ev.gateLog() == nil {
		return p, false
	}
	accepted, refused := p.judged(in, ev, review)
	if !review && len(accepted) > 0 {
		p.react = append(p.react, "+1")
	}
	if !review && len(refused) > 0 {
		p.react = append(p.react, "-1")
	}
	if len(refused) > 0 && appComment(ev, th.t, checks.ReplyMarker(id)) == nil {
		p.reply = checks.RefusalReply(id, authorOf(ev.snap, id), ev.cfg.CommandPrefix, refused)
	}
	if len(accepted)+len(refused) > 0 {
		// Recorded once answered, so the sweep knows not to answer again.
		p.answered = &store.Entry{Kind: "answered", DeliveryID: in.delivery, Subject: answeredSubject(in, id),
			Body: map[string]any{"item": id, "thread": th.number, "accepted": len(accepted), "refused": len(refused)}}
	}
	return p, true
}

// judged adds a ledger row for each of the item's requests (its dispose
// commands too, for a comment) and returns them accepted and refused.
func (p *answerPlan) judged(in evalInput, ev *evaluation, review bool) (accepted, refused []gatelog.Outcome) {
	outcomes := ev.gateLog().Outcomes
	if !review {
		outcomes = append(slices.Clone(outcomes), disposeOutcomes(p.item, p.thread.t, ev.cfg.CommandPrefix)...)
	}
	for _, o := range outcomes {
		if o.ItemID != p.item || o.Review != review || o.Implicit {
			continue
		}
		p.rows = append(p.rows, commandEntry(in, ev, p.thread.number, o))
		if o.Accepted {
			accepted = append(accepted, o)
			p.status = p.status || o.Action == gatelog.ActionStatus
		} else {
			refused = append(refused, o)
		}
	}
	return accepted, refused
}

// applyAnswer writes an answer's plan: the ledger rows, the reactions, the
// reply, then the answered row.
func (e *evaluator) applyAnswer(ctx context.Context, in evalInput, p answerPlan) error {
	for _, r := range p.rows {
		if err := e.w.Record(ctx, r); err != nil {
			return err
		}
	}
	for _, content := range p.react {
		if err := e.ans.React(ctx, in.owner, in.repo, p.item, content); err != nil {
			return err
		}
	}
	if p.reply != "" {
		if _, err := e.ans.Comment(ctx, in.owner, in.repo, p.thread.number, p.reply); err != nil {
			return err
		}
	}
	if p.answered != nil {
		return e.w.Record(ctx, *p.answered)
	}
	return nil
}

// answeredSubject names the ledger row that says comment or review id was
// answered.
func answeredSubject(in evalInput, id int64) string {
	return fmt.Sprintf("%s/%s/answered/%d", in.owner, in.repo, id)
}

// keepStatus writes the thread's one status comment as planStatus says:
// created when asked for (create), edited when it exists and no longer
// says what is true.
func (e *evaluator) keepStatus(ctx context.Context, in evalInput, ev *evaluation, th thread, create bool) error {
	edit, body, due := planStatus(ev, th, create)
	switch {
	case !due:
		return nil
	case edit == 0:
		_, err := e.ans.Comment(ctx, in.owner, in.repo, th.number, body)
		return err
	}
	return e.ans.EditComment(ctx, in.owner, in.repo, edit, body)
}

// planStatus is what the thread's status comment needs: due says a write
// is needed, edit is the comment to edit (0: create one), body its text.
func planStatus(ev *evaluation, th thread, create bool) (edit int64, body string, due bool) {
	c := ev.gatesContext()
	if th.number != c.PR {
		c.PR = 0 // a status asked for on the unit's issue speaks of the unit
	}
	body = checks.StatusComment(c, ev.gateLog().State, ev.gateLog().Blockers)
	old := appComment(ev, th.t, checks.StatusMarker)
	switch {
	case old == nil && create:
		return 0, body, true
	case old != nil && old.Body != body:
		return old.ID, body, true
	}
	return 0, body, false
}

// appComment is the App's own comment in t that starts with marker, or nil.
func appComment(ev *evaluation, t snapshot.Thread, marker string) *snapshot.Comment {
	for i, c := range t.Comments {
		if login.Equal(c.Author.Login, ev.appLogin) && strings.HasPrefix(c.Body, marker) {
			return &t.Comments[i]
		}
	}
	return nil
}

// authorOf is the login that wrote item id.
func authorOf(snap *snapshot.PR, id int64) string {
	a, _, _ := itemOf(snap, id)
	return a.Login
}

// itemOf finds comment or review id in the snapshot's conversations: its
// author and when it was made.
func itemOf(snap *snapshot.PR, id int64) (snapshot.Actor, time.Time, bool) {
	threads := []snapshot.Thread{}
	for _, t := range snap.UnitComments {
		threads = append(threads, t)
	}
	if snap.Control != nil {
		threads = append(threads, snap.Control.Thread)
	}
	if p := snap.Pull; p != nil {
		threads = append(threads, p.Conversation)
		for _, r := range p.Reviews {
			if r.ID == id {
				return r.Author, r.Submitted, true
			}
		}
	}
	for _, t := range threads {
		for _, c := range t.Comments {
			if c.ID == id {
				return c.Author, c.Created, true
			}
		}
	}
	return snapshot.Actor{}, time.Time{}, false
}

// commandEntry is the ledger row of one request's outcome.
func commandEntry(in evalInput, ev *evaluation, number int, o gatelog.Outcome) store.Entry {
	verdict := "refused"
	if o.Accepted {
		verdict = "accepted"
	}
	return store.Entry{
		Kind: "command:" + verdict, DeliveryID: in.delivery,
		Subject: fmt.Sprintf("%s/%s#%d/%d:%d", in.owner, in.repo, number, o.ItemID, o.Line),
		Body: map[string]any{
			"event": in.event, "repository": in.owner + "/" + in.repo, "thread": number, "item": o.ItemID, "line": o.Line,
			"author": authorOf(ev.snap, o.ItemID), "command": o.Command, "action": o.Action, "gate": o.GateID,
			"accepted": o.Accepted, "reason": o.Reason, "unit": ev.unit, "config_commit": ev.snap.Config.CommitSHA,
		},
	}
}

// newControl is a control issue just created: no comments yet.
func newControl(n int, url string) *snapshot.ControlIssue {
	return &snapshot.ControlIssue{Number: n, URL: url}
}

// disposeOutcomes are the answers to comment id's dispose commands (the
// audit's business, not the gate log's): accepted when the comment's
// dispositions can be read, each refused with its reason otherwise. Whether
// a disposition closes a finding is the audit's to say, later.
func disposeOutcomes(id int64, t snapshot.Thread, prefix string) []gatelog.Outcome {
	var body string
	for _, c := range t.Comments {
		if c.ID == id {
			body = c.Body
		}
	}
	var cmds []command.Command
	for _, c := range command.Parse(body, prefix) {
		if c.Verb == command.VerbDispose {
			cmds = append(cmds, c)
		}
	}
	if len(cmds) == 0 {
		return nil
	}
	_, errs := review.Dispositions(body, prefix)
	var out []gatelog.Outcome
	for _, c := range cmds {
		o := gatelog.Outcome{ItemID: id, Line: c.Line, Command: c.Raw, Action: command.VerbDispose, Accepted: len(errs) == 0}
		if !o.Accepted {
			o.Reason = errors.Join(errs...).Error()
		}
		out = append(out, o)
	}
	return out
}
