// Package heldwork answers implementation under a HOLD (craft-rules §3.4:
// a HOLD blocks new implementation jobs and merges while status
// publication stays allowed; never spawn, implement, merge or close in
// HOLD). A push to a held unit's pull
// request (pull_request.synchronize) or an agent (the config's agents)
// assigned to a held unit's issue (issues.assigned) is answered with one
// reply on the pull request or issue and one ledger row (held_work); the
// merge stays blocked by aepgate/gates as before (docs/gates.md).
package heldwork

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/login"
)

// Issues reads a unit's issue with the repository config and replies
// (gh.Installation).
type Issues interface {
	IssueClosure(ctx context.Context, owner, repo string, number int) (*gh.IssueClosure, error)
	Comment(ctx context.Context, owner, repo string, number int, body string) (int64, error)
}

var _ Issues = (*gh.Installation)(nil)

// Kept reads the kept decisions a HOLD comes from (store.DB).
type Kept interface {
	KeptDecisions(ctx context.Context, repo string) ([]store.Kept, error)
}

var _ Kept = (*store.DB)(nil)

// Ledger records decisions and says whether one about a subject exists
// (writer.Writer).
type Ledger interface {
	Record(ctx context.Context, e store.Entry) error
	Has(ctx context.Context, subject string) (bool, error)
}

// Rules say which work a HOLD answers; tests switch one off to show what
// it stops.
type Rules struct {
	// Push answers a push to a held unit's pull request.
	Push bool
	// Assignment answers an agent assigned to a held unit.
	Assignment bool
}

// DefaultRules answer both.
func DefaultRules() Rules { return Rules{Push: true, Assignment: true} }

// Judge answers work on held units for one installation.
type Judge struct {
	Issues Issues
	Kept   Kept
	Ledger Ledger
	// Rules are DefaultRules when nil.
	Rules *Rules
	Log   *slog.Logger
}

// Input is the delivery the work came in.
type Input struct {
	Delivery    string
	Owner, Repo string
}

func (in Input) repo() string { return in.Owner + "/" + in.Repo }

// Kinds of held work.
const (
	KindPush       = "push"
	KindAssignment = "assignment"
)

// Work is one push or assignment: Unit is the work unit's issue, Thread
// where the reply goes (the pull request for a push, the issue for an
// assignment), By who pushed or assigned, Head the pushed head and
// Assignee the assigned account.
type Work struct {
	Kind           string
	Unit, Thread   int
	By             string
	Head, Assignee string
}

// subject names the work in the ledger: once per push (the head) and per
// assignment (the assignee on the unit), so a redelivery answers nothing
// twice.
func (w Work) subject(repo string) string {
	if w.Kind == KindPush {
		return fmt.Sprintf("%s#%d held_work push %s", repo, w.Thread, w.Head)
	}
	return fmt.Sprintf("%s#%d held_work assignment %s", repo, w.Thread, strings.ToLower(w.Assignee))
}

// Answer replies once to w when a HOLD applies to its unit. The kept
// decisions are read first (the App's store): with none on the unit or the
// control issue nothing is read from GitHub; else one read (the unit's
// issue with the config) and, held, one write.
func (j *Judge) Answer(ctx context.Context, in Input, w Work) error {
	if w.Unit <= 0 || !j.applies(w.Kind) {
		return nil
	}
	kept, err := j.kept(ctx, in, w.Unit)
	if err != nil || len(kept) == 0 {
		return err
	}
	st, err := j.Issues.IssueClosure(ctx, in.Owner, in.Repo, w.Unit)
	if err != nil {
		return fmt.Errorf("held work: %w", err)
	}
	if !st.Found {
		return nil // no unit issue: nothing is held by it
	}
	cfg, err := verdict.Config(st.Config)
	if err != nil {
		j.Log.Warn("held work not answered: the repository config is invalid; aepgate/config says why", "unit", w.Unit, "err", err)
		return nil
	}
	if w.Kind == KindAssignment && !login.In(cfg.Agents, w.Assignee) {
		return nil // only an agent's assignment is implementation
	}
	if hold := verdict.HoldOn(kept, w.Unit, cfg.CommandPrefix); hold != "" {
		return j.reply(ctx, in, cfg, w, hold)
	}
	return nil
}

func (j *Judge) applies(kind string) bool {
	r := DefaultRules()
	if j.Rules != nil {
		r = *j.Rules
	}
	return kind == KindPush && r.Push || kind == KindAssignment && r.Assignment
}

// reply comments once on w's thread and records it.
func (j *Judge) reply(ctx context.Context, in Input, cfg *config.Config, w Work, hold string) error {
	subject := w.subject(in.repo())
	done, err := j.Ledger.Has(ctx, subject)
	if err != nil || done {
		return err
	}
	id, err := j.Issues.Comment(ctx, in.Owner, in.Repo, w.Thread, Reply(w, hold, cfg.CommandPrefix))
	if err != nil {
		return err
	}
	j.Log.Info("held work answered", "kind", w.Kind, "unit", w.Unit, "thread", w.Thread, "by", w.By)
	return j.Ledger.Record(ctx, store.Entry{Kind: "held_work", DeliveryID: in.Delivery, Subject: subject,
		Body: map[string]any{"kind": w.Kind, "unit": w.Unit, "thread": w.Thread, "by": w.By, "head": w.Head, "assignee": w.Assignee, "hold": hold, "comment_id": id}})
}

// kept are the kept decisions a HOLD on unit comes from: the control
// issue's and the unit's (its issue's and its pull requests').
func (j *Judge) kept(ctx context.Context, in Input, unit int) ([]gatelog.Kept, error) {
	rows, err := j.Kept.KeptDecisions(ctx, in.repo())
	if err != nil {
		return nil, err
	}
	return verdict.KeptHolds(rows, in.repo(), unit)
}
