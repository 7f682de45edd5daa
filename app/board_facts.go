package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/board"
	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/gate"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/report"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// shownRun is a check run an evaluation decided, with its ID when this
// evaluation wrote it.
type shownRun struct {
	run checks.Run
	id  int64
}

// boardKeeper keeps the board's facts and schedules board updates
// (boardJobs).
type boardKeeper interface {
	// saveFact stores an attempt's facts and reports whether they changed.
	saveFact(ctx context.Context, repo string, f board.Fact) (bool, error)
	// schedule asks for one board update of owner/repo soon, however many
	// evaluations ask before it runs.
	schedule(ctx context.Context, owner, repo string) error
}

// keepBoardFact stores what this evaluation derived for the board and,
// when it changed, schedules a board update. The board is a view: a
// failure is logged and the evaluation goes on.
func (e *evaluator) keepBoardFact(ctx context.Context, in evalInput, ev *evaluation, shown []shownRun) {
	if e.boards == nil || ev.unit == 0 {
		return
	}
	repo := in.owner + "/" + in.repo
	changed, err := e.boards.saveFact(ctx, repo, boardFact(ev, shown))
	if err == nil && changed {
		err = e.boards.schedule(ctx, in.owner, in.repo)
	}
	if err != nil {
		e.log.Warn("board facts not kept", "pr", in.pr, "err", err)
	}
}

// boardFact is what the board needs of one evaluated attempt.
func boardFact(ev *evaluation, shown []shownRun) board.Fact {
	p := ev.snap.Pull
	repoURL, _, _ := strings.Cut(p.URL, "/pull/")
	f := board.Fact{PR: p.Number, Unit: ev.unit, Head: p.HeadSHA, LastEvidence: lastEvidence(p)}
	for _, s := range shown {
		id := s.id
		if old := p.Latest(s.run.Name); id == 0 && old != nil {
			id = old.ID
		}
		c := board.Check{Name: s.run.Name, Status: string(s.run.EffectiveStatus()), Conclusion: string(s.run.Conclusion)}
		if id != 0 {
			c.URL = fmt.Sprintf("%s/runs/%d", repoURL, id)
		}
		f.Checks = append(f.Checks, c)
	}
	f.State, f.Reason = factState(ev)
	if ev.cfg != nil && ev.gateLog() != nil {
		f.Inbox = inboxOf(ev, *ev.gateLog())
	}
	return f
}

// factState derives the attempt's state: held while a gate or HOLD waits
// for the owner, blocked while its work unit fails, in review once a
// review was asked for or given, else in progress.
func factState(ev *evaluation) (board.State, string) {
	p := ev.snap.Pull
	switch {
	case ev.gateLog() != nil && len(ev.gateLog().Blockers) > 0:
		b := ev.gateLog().Blockers[0]
		if g, ok := findGate(ev.gateLog().State, b.GateID); ok {
			return board.StateHeld, g.Question
		}
		return board.StateHeld, b.Reason
	case !ev.unitVerdict().OK && len(ev.unitVerdict().Reasons) > 0:
		return board.StateBlocked, ev.unitVerdict().Reasons[0]
	case ev.snap.Has.Conversation && ev.gateLog() == nil && ev.configValid():
		return board.StateBlocked, "the owner gates cannot be judged"
	case len(p.Reviews) > 0 || len(p.ReviewRequests) > 0:
		return board.StateInReview, ""
	}
	return board.StateInProgress, ""
}

// findGate returns the gate called id in st.
func findGate(st gate.State, id string) (gate.Gate, bool) {
	for _, g := range st.Gates {
		if g.GateID == id {
			return g, true
		}
	}
	return gate.Gate{}, false
}

// inboxOf lists the gates and HOLDs that block the attempt, each with its
// question, choices, the exact reply and where it was opened.
func inboxOf(ev *evaluation, res gatelog.Result) []board.InboxItem {
	p := ev.snap.Pull
	prefix := ev.cfg.CommandPrefix
	if prefix == "" {
		prefix = command.DefaultPrefix
	}
	var out []board.InboxItem
	for _, b := range res.Blockers {
		g, ok := findGate(res.State, b.GateID)
		if !ok {
			continue
		}
		it := board.InboxItem{Kind: "gate", Subject: "project", Question: g.Question, Choices: g.Choices, URL: p.URL,
			Since: time.UnixMilli(g.CreatedAt).UTC()}
		if g.WorkUnit != nil {
			it.Subject = "work unit #" + *g.WorkUnit
		}
		if strings.HasPrefix(g.GateID, gate.HoldID) || strings.HasPrefix(g.GateID, gatelog.UnitHoldPrefix) {
			it.Kind, it.Choices, it.Reply = "hold", nil, prefix+" "+command.VerbResume
		} else {
			it.Reply = fmt.Sprintf("%s %s %s %s", prefix, command.VerbResolve, g.GateID, choiceOf(g.Choices))
		}
		if strings.HasPrefix(g.Evidence, "https://") {
			it.URL = g.Evidence
		}
		out = append(out, it)
	}
	return append(out, tamperInbox(res.Tampered)...)
}

// tamperInbox lists the kept decisions whose source was edited or deleted:
// the owner sees who changed what, and that the decision stays in force.
func tamperInbox(ts []gatelog.Tamper) []board.InboxItem {
	var out []board.InboxItem
	for _, t := range ts {
		by := "an account GitHub did not name"
		if t.By != "" {
			by = t.By
		}
		out = append(out, board.InboxItem{Kind: "tampering", Subject: fmt.Sprintf("comment by %s", t.Author),
			Question: fmt.Sprintf("%s by %s after aepgate accepted it; what it blocked stays in force as accepted", t.Change, by),
			URL:      t.URL, Since: t.Created.UTC()})
	}
	return out
}

// choiceOf is the one choice, or a placeholder for one of several.
func choiceOf(choices []string) string {
	if len(choices) == 1 {
		return choices[0]
	}
	return "<choice>"
}

// lastEvidence is the newest sign of work on the attempt: its head
// commit's date, a workflow run at the head, or a structured report
// comment (a worker report, as aep/report reads it: report.Parse).
func lastEvidence(p *snapshot.Pull) time.Time {
	last := p.HeadAt
	for _, w := range p.Workflows {
		if w.Updated.After(last) {
			last = w.Updated
		}
	}
	for _, c := range p.Conversation.Comments {
		if c.Created.After(last) && report.Parse(c.Body).Found {
			last = c.Created
		}
	}
	return last.UTC()
}
