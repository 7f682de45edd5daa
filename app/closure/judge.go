// Package closure acts on protocol/closure's rule of when a unit counts as
// done (docs/closure.md): it judges each closure of a unit's issue (who
// closed it, with what live permission, under which HOLD), keeps the facts
// with a ledger row, answers a closure without evidence once on the issue
// (reopening it with closure.reopen), keeps each `/aep close <reason>` and
// acknowledges it once, and keeps the App's evidence for merged attempts.
// Dependents are judged again through the caller's JudgeOpen.
package closure

import (
	"context"
	"log/slog"
	"time"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/closure"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// Judge judges one installation's closures.
type Judge struct {
	Issues Issues
	Roles  Roles
	Store  Store
	Ledger Ledger
	// Rules decide when a unit counts as done.
	Rules closure.Rules
	// JudgeOpen judges again the open pull requests unit affects.
	JudgeOpen func(ctx context.Context, unit int) error
	Log       *slog.Logger
}

// Input is the delivery a judgement runs for.
type Input struct {
	Delivery    string
	Owner, Repo string
}

func (in Input) repo() string { return in.Owner + "/" + in.Repo }

// Closed is one issues.closed delivery: the issue, its sender (who closed
// it) and the payload's issue.closed_at (a delivery about an earlier
// closure changes nothing).
type Closed struct {
	Issue      int
	By, ByType string
	ClosedAt   string
}

// Closure judges an issue's closure: it costs two reads, the issue with
// the config and the closer's live role.
func (j *Judge) Closure(ctx context.Context, in Input, c Closed) error {
	st, err := j.Issues.IssueClosure(ctx, in.Owner, in.Repo, c.Issue)
	if err != nil {
		return err
	}
	if !st.Found || st.Open || !sameInstant(st.ClosedAt, c.ClosedAt) {
		return nil // reopened, or closed again since: that delivery judges it
	}
	cfg, err := verdict.Config(st.Config)
	if err != nil {
		j.Log.Warn("closure not judged: the repository config is invalid; dependents stay blocked", "issue", c.Issue, "err", err)
		return nil
	}
	f, err := j.facts(ctx, in, cfg, st, c)
	if err != nil {
		return err
	}
	v, err := j.keep(ctx, in, f, st)
	if err != nil || v.State != closure.WithoutEvidence {
		return err
	}
	return j.answer(ctx, in, cfg, st, v)
}

// sameInstant compares two RFC 3339 times; an unparsable one never matches.
func sameInstant(a, b string) bool {
	ta, errA := time.Parse(time.RFC3339, a)
	tb, errB := time.Parse(time.RFC3339, b)
	return errA == nil && errB == nil && ta.Equal(tb)
}

// facts gathers the facts of one closure: the closer's live role (a
// non-User is never read: it is never the owner) and the HOLD the kept
// decisions put on the unit.
func (j *Judge) facts(ctx context.Context, in Input, cfg *config.Config, st *gh.IssueClosure, c Closed) (closure.Facts, error) {
	ct, _ := workunit.ParseContract(st.Body)
	f := closure.Facts{Number: c.Issue, StateReason: st.StateReason, Owners: cfg.Owners, Risk: string(ct.Risk), Prefix: cfg.CommandPrefix, Final: cfg.Closure.Final,
		ClosedBy: closure.Actor{Login: c.By, Type: c.ByType}}
	f.ClosedAt, _ = time.Parse(time.RFC3339, st.ClosedAt)
	if c.ByType == "User" {
		role, err := j.Roles.Role(ctx, in.Owner, in.Repo, c.By)
		if err != nil {
			return f, err
		}
		f.ClosedBy.Permission = role
	}
	prev, err := j.stored(ctx, in.repo(), c.Issue)
	if err != nil {
		return f, err
	}
	f.Commands = prev.Commands // the owner's `/aep close` outlives a reopening
	hold, err := j.holdOn(ctx, in, c.Issue, cfg.CommandPrefix)
	f.Hold = hold
	return f, err
}
