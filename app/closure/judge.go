// Package closure acts on protocol/closurerules's rule of when a unit counts as
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

	"github.com/aepgate/aepgate/app/contract"
	"github.com/aepgate/aepgate/app/owners"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/config"
)

// Judge judges one installation's closures.
type Judge struct {
	Issues Issues
	Roles  Roles
	Store  Store
	Ledger Ledger
	// Rules decide when a unit counts as done.
	Rules closurerules.Rules
	// Contracts is the one reader of a unit's contract (its risk decides
	// the low-risk path), kept as first judged.
	Contracts contract.Keeper
	// JudgeOpen judges again the open pull requests unit affects.
	JudgeOpen func(ctx context.Context, unit int) error
	// People resolves the config's owners (app/owners, the one resolver).
	People owners.Reader
	Log    *slog.Logger
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
	cfg, problem, err := j.config(ctx, in, st)
	if err != nil || cfg == nil {
		return err
	}
	f, err := j.facts(ctx, in, cfg, st, c)
	if err != nil {
		return err
	}
	v, err := j.keep(ctx, in, f, st)
	if err != nil || v.State != closurerules.WithoutEvidence {
		return err
	}
	if problem != "" {
		// Nobody's closure counted as the owner's: the comment says why.
		v.Missing += "; and no closure counts as the owner's while the owners cannot be resolved: " + problem
	}
	return j.answer(ctx, in, cfg, st, v)
}

// config is the repository config read with the issue, its people
// resolved by the one resolver (app/owners); nil when it is invalid (a
// closure is then not judged, and dependents stay blocked). When the
// people cannot be resolved, problem says why and the config names no
// owner: no one's closure or command counts as the owner's.
func (j *Judge) config(ctx context.Context, in Input, st *gh.IssueClosure) (cfg *config.Config, problem string, err error) {
	cfg, err = verdict.Config(st.Config)
	if err != nil {
		j.Log.Warn("closure not judged: the repository config is invalid; dependents stay blocked", "repo", in.repo(), "err", err)
		return nil, "", nil
	}
	return j.People.Resolved(ctx, in.Owner, in.Repo, st.Config.CommitSHA, cfg)
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
func (j *Judge) facts(ctx context.Context, in Input, cfg *config.Config, st *gh.IssueClosure, c Closed) (closurerules.Facts, error) {
	risk, err := j.risk(ctx, in, cfg, st, c.Issue)
	if err != nil {
		return closurerules.Facts{}, err
	}
	f := closurerules.Facts{Number: c.Issue, StateReason: st.StateReason, Owners: cfg.Owners, Risk: risk, Prefix: cfg.CommandPrefix, Final: cfg.Closure.Final,
		ClosedBy: closurerules.Actor{Login: c.By, Type: c.ByType}}
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

// risk is the unit's risk tier from the contract that counts (app/contract:
// kept as first judged); "" when its contract is invalid and none is kept.
func (j *Judge) risk(ctx context.Context, in Input, cfg *config.Config, st *gh.IssueClosure, issue int) (string, error) {
	k := j.Contracts
	k.Delivery = in.Delivery
	kept, err := k.Unit(ctx, in.repo(), contract.Issue{Number: issue, Body: st.Body, Editor: st.Editor}, contract.Entitled(cfg))
	if err != nil || kept == nil {
		return "", err
	}
	return string(kept.Contract.Risk), nil
}

// InputAt is the closure input of work done for w.
func InputAt(w route.Where) Input { return Input{Delivery: w.Delivery, Owner: w.Owner, Repo: w.Repo} }

// RulesOr is *r, or closurerules.DefaultRules when r is nil.
func RulesOr(r *closurerules.Rules) closurerules.Rules {
	if r != nil {
		return *r
	}
	return closurerules.DefaultRules()
}
