package verdict

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/deployrules"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/ledger"
	"github.com/aepgate/aepgate/protocol/login"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/review"
)

// controlIssueTitle and controlIssueBody open the control issue.
const (
	ControlIssueTitle = "aepgate control"
	ControlIssueBody  = "This issue is where the owners of this repository make project-wide decisions with aepgate: " +
		"`/aep hold <reason>` here stops every pull request of the repository until an owner answers `/aep resume`, " +
		"and an `aep-gate` block with `scope: project` opens a gate that blocks them all. " +
		"aepgate created it (label `aepgate:control`) and reads its comments on every evaluation; see the project's docs/gates.md.\n"
)

// Thread is where an item was posted: the issue or pull request number and
// the item's comments (to find the App's earlier reply).
type Thread struct {
	Number int
	Conv   snapshot.Thread
}

// FindItem locates item id in the snapshot: its thread, and whether it is
// a review (reviews take no reactions).
func FindItem(snap *snapshot.PR, unit int, id int64) (th Thread, review bool, ok bool) {
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
			return Thread{p.Number, p.Conversation}, false, true
		}
		for _, r := range p.Reviews {
			if r.ID == id {
				return Thread{p.Number, p.Conversation}, true, true
			}
		}
	}
	if t, found := snap.UnitComments[unit]; found && has(t) {
		return Thread{unit, t}, false, true
	}
	if c := snap.Control; c != nil && has(c.Thread) {
		return Thread{c.Number, c.Thread}, false, true
	}
	return Thread{}, false, false
}

// AnswerPlan is what answering one comment or review takes, computed from
// the evaluation alone: the ledger row of each request (written first), the
// reactions, at most one reply, and the row saying it was answered.
type AnswerPlan struct {
	// item is the comment or review answered, on thread.
	Item     int64
	Thread   Thread
	Rows     []ledger.Entry
	React    []string
	Reply    string
	Answered *ledger.Entry
	// status says the item asked for the status comment.
	Status bool
}

// PlanAnswer plans the answer to item id; ok is false when the item is gone
// or in no conversation this evaluation replayed.
func PlanAnswer(at Origin, ev *Evaluation, id int64) (AnswerPlan, bool) {
	th, review, ok := FindItem(ev.Snap, ev.Unit, id)
	p := AnswerPlan{Item: id, Thread: th}
	if ok && ev.GateLog() == nil && ev.Unresolved != "" {
		return p.unjudged(at, ev, review)
	}
	if !ok || ev.GateLog() == nil {
		return p, false
	}
	accepted, refused := p.judged(at, ev, review)
	if !review && len(accepted) > 0 {
		p.React = append(p.React, "+1")
	}
	if !review && len(refused) > 0 {
		p.React = append(p.React, "-1")
	}
	if len(refused) > 0 && AppComment(ev, th.Conv, checks.ReplyMarker(id)) == nil {
		p.Reply = checks.RefusalReply(id, AuthorOf(ev.Snap, id), ev.Cfg.CommandPrefix, refused)
	}
	if len(accepted)+len(refused) > 0 {
		// Recorded once answered, so the sweep knows not to answer again.
		p.Answered = &ledger.Entry{Kind: "answered", DeliveryID: at.Delivery, Subject: AnsweredSubject(at, id),
			Body: map[string]any{"item": id, "thread": th.Number, "accepted": len(accepted), "refused": len(refused)}}
	}
	return p, true
}

// judged adds a ledger row for each of the item's requests (its dispose
// commands too, for a comment) and returns them accepted and refused.
func (p *AnswerPlan) judged(at Origin, ev *Evaluation, review bool) (accepted, refused []gatelog.Outcome) {
	outcomes := ev.GateLog().Outcomes
	if !review {
		outcomes = append(slices.Clone(outcomes), DisposeOutcomes(p.Item, p.Thread.Conv, ev.Cfg.CommandPrefix)...)
	}
	for _, o := range outcomes {
		if o.ItemID != p.Item || o.Review != review || o.Implicit || Deferred(o) {
			continue
		}
		p.Rows = append(p.Rows, CommandEntry(at, ev, p.Thread.Number, o))
		if o.Accepted {
			accepted = append(accepted, o)
			p.Status = p.Status || o.Action == gatelog.ActionStatus
		} else {
			refused = append(refused, o)
		}
	}
	return accepted, refused
}

// Deferred reports whether outcome o is answered by another judge: a
// resolve of a deploy gate, which only the deployment judge replays
// (app/deploy), so this answerer neither counts nor refuses it.
func Deferred(o gatelog.Outcome) bool {
	return strings.HasPrefix(o.GateID, deployrules.GatePrefix)
}

// AnsweredSubject names the ledger row that says comment or review id was
// answered.
func AnsweredSubject(at Origin, id int64) string {
	return fmt.Sprintf("%s/%s/answered/%d", at.Owner, at.Repo, id)
}

// PlanStatus is what the thread's status comment needs: due says a write
// is needed, edit is the comment to edit (0: create one), body its text.
func PlanStatus(ev *Evaluation, th Thread, create bool) (edit int64, body string, due bool) {
	c := ev.GatesContext()
	if th.Number != c.PR {
		c.PR = 0 // a status asked for on the unit's issue speaks of the unit
	}
	body = checks.StatusComment(c, ev.GateLog().State, ev.GateLog().Blockers)
	old := AppComment(ev, th.Conv, checks.StatusMarker)
	switch {
	case old == nil && create:
		return 0, body, true
	case old != nil && old.Body != body:
		return old.ID, body, true
	}
	return 0, body, false
}

// AppComment is the App's own comment in t that starts with marker, or nil.
func AppComment(ev *Evaluation, t snapshot.Thread, marker string) *snapshot.Comment {
	for i, c := range t.Comments {
		if login.Equal(c.Author.Login, ev.AppLogin) && strings.HasPrefix(c.Body, marker) {
			return &t.Comments[i]
		}
	}
	return nil
}

// AuthorOf is the login that wrote item id.
func AuthorOf(snap *snapshot.PR, id int64) string {
	a, _, _ := ItemOf(snap, id)
	return a.Login
}

// ItemOf finds comment or review id in the snapshot's conversations: its
// author and when it was made.
func ItemOf(snap *snapshot.PR, id int64) (snapshot.Actor, time.Time, bool) {
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

// CommandEntry is the ledger row of one request's outcome.
func CommandEntry(at Origin, ev *Evaluation, number int, o gatelog.Outcome) ledger.Entry {
	verdict := "refused"
	if o.Accepted {
		verdict = "accepted"
	}
	return ledger.Entry{
		Kind: "command:" + verdict, DeliveryID: at.Delivery,
		Subject: fmt.Sprintf("%s/%s#%d/%d:%d", at.Owner, at.Repo, number, o.ItemID, o.Line),
		Body: map[string]any{
			"event": at.Event, "repository": at.Owner + "/" + at.Repo, "thread": number, "item": o.ItemID, "line": o.Line,
			"author": AuthorOf(ev.Snap, o.ItemID), "command": o.Command, "action": o.Action, "gate": o.GateID,
			"accepted": o.Accepted, "reason": o.Reason, "unit": ev.Unit, "config_commit": ev.Snap.Config.CommitSHA,
		},
	}
}

// NewControl is a control issue just created: no comments yet.
func NewControl(n int, url string) *snapshot.ControlIssue {
	return &snapshot.ControlIssue{Number: n, URL: url}
}

// DisposeOutcomes are the answers to comment id's dispose commands (the
// audit's business, not the gate log's): accepted when the comment's
// dispositions can be read, each refused with its reason otherwise. Whether
// a disposition closes a finding is the audit's to say, later.
func DisposeOutcomes(id int64, t snapshot.Thread, prefix string) []gatelog.Outcome {
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

// AnswersRequests reports whether item id holds a command or gate block.
func AnswersRequests(ev *Evaluation, id int64) bool {
	for _, o := range ev.GateLog().Outcomes {
		if o.ItemID == id && !o.Implicit {
			return true
		}
	}
	return false
}

// OwnersToAsk are the owners to ask for a review of a pull request a HOLD
// or gate blocks (the plan requestOwnerReviews applies): the repository's
// owners and the owners of its blocking contract gates' paths.
func OwnersToAsk(ev *Evaluation) []string {
	p := ev.Snap.Pull
	if len(ev.GateLog().Blockers) == 0 {
		return nil
	}
	same := func(a string) func(string) bool { return func(b string) bool { return login.Equal(a, b) } }
	var want []string
	for _, o := range ev.blockingOwners() {
		reviewed := slices.ContainsFunc(p.Reviews, func(r snapshot.Review) bool { return login.Equal(r.Author.Login, o) && r.CommitSHA == p.HeadSHA })
		if login.Equal(o, p.Author.Login) || slices.ContainsFunc(p.ReviewRequests, same(o)) || reviewed {
			continue
		}
		want = append(want, o)
	}
	return want
}

// ChangesDecision reports whether item id had a request the gate log
// accepted and the App keeps (a HOLD, resume, gate or resolve).
func ChangesDecision(ev *Evaluation, id int64) bool {
	for _, o := range ev.GateLog().Outcomes {
		if o.ItemID == id && o.Accepted && gatelog.Keeps(o.Action) {
			return true
		}
	}
	return false
}
