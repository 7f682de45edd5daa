package app

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/closure"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// issueCloser reads and answers a unit's closure (gh.Installation).
type issueCloser interface {
	IssueClosure(ctx context.Context, owner, repo string, number int) (*gh.IssueClosure, error)
	ReopenIssue(ctx context.Context, owner, repo string, number int) error
	Comment(ctx context.Context, owner, repo string, number int, body string) (int64, error)
}

// unitStore keeps closure facts and the App's own evidence (store.DB).
type unitStore interface {
	SaveClosure(ctx context.Context, repo string, unit int, facts []byte, e store.Entry, now time.Time) error
	Closures(ctx context.Context, repo string) (map[int][]byte, error)
	MarkClosureCommented(ctx context.Context, repo string, unit int, key string) (bool, error)
	UnitEvidence(ctx context.Context, repo string) (map[int][][]byte, error)
	SaveUnitEvidence(ctx context.Context, repo string, unit, pr int, attempt []byte, now time.Time) error
}

// closureRules are the rules deciding when a unit counts as done: the
// defaults unless a test put a variant in Options.
func (a *App) closureRules() closure.Rules {
	if a.opts.closureRules != nil {
		return *a.opts.closureRules
	}
	return closure.DefaultRules()
}

// loadClosures puts the repository's stored closure facts, joined with
// the App's evidence, on the evaluation (no GitHub read).
func (e *evaluator) loadClosures(ctx context.Context, in evalInput, ev *verdict.Evaluation) error {
	facts, evidence, err := e.closureRows(ctx, in.owner+"/"+in.repo)
	if err != nil {
		return err
	}
	ev.Closures = map[int]closure.Facts{}
	for n, raw := range facts {
		f, err := verdict.ClosureFacts(raw, evidence[n])
		if err != nil {
			return fmt.Errorf("closure of %s/%s#%d: %w", in.owner, in.repo, n, err)
		}
		ev.Closures[n] = f
	}
	ev.ClosureRules = e.closureRules
	return nil
}

func (e *evaluator) closureRows(ctx context.Context, repo string) (map[int][]byte, map[int][][]byte, error) {
	facts, err := e.units.Closures(ctx, repo)
	if err != nil {
		return nil, nil, err
	}
	evidence, err := e.units.UnitEvidence(ctx, repo)
	if err != nil {
		return nil, nil, err
	}
	return facts, evidence, nil
}

// judgeClosure judges an issue's closure (issues.closed): who closed it,
// with what live permission, under which HOLD; it keeps the facts with a
// ledger row and answers a closure without evidence on the issue. It
// costs two reads: the issue with the config, and the closer's role.
type judgeClosure struct {
	issue int
	// by and byType are the payload's sender; closedAt the payload's
	// issue.closed_at (a delivery about an earlier closure changes nothing).
	by, byType, closedAt string
}

func (j judgeClosure) run(ctx context.Context, _ *App, ev *evaluator, w where) error {
	return ev.judgeClosure(ctx, w.input(), j)
}

func (e *evaluator) judgeClosure(ctx context.Context, in evalInput, j judgeClosure) error {
	st, err := e.issues.IssueClosure(ctx, in.owner, in.repo, j.issue)
	if err != nil {
		return err
	}
	if !st.Found || st.Open || !sameInstant(st.ClosedAt, j.closedAt) {
		return nil // reopened, or closed again since: that delivery judges it
	}
	cfg, err := verdict.Config(st.Config)
	if err != nil {
		e.log.Warn("closure not judged: the repository config is invalid; dependents stay blocked", "issue", j.issue, "err", err)
		return nil
	}
	f, err := e.closureFacts(ctx, in, cfg, st, j)
	if err != nil {
		return err
	}
	v, err := e.keepClosure(ctx, in, f, st)
	if err != nil || v.State != closure.WithoutEvidence {
		return err
	}
	return e.answerClosure(ctx, in, cfg, st, v)
}

// sameInstant compares two RFC 3339 times; an unparsable one never matches.
func sameInstant(a, b string) bool {
	ta, errA := time.Parse(time.RFC3339, a)
	tb, errB := time.Parse(time.RFC3339, b)
	return errA == nil && errB == nil && ta.Equal(tb)
}

// closureFacts gathers the facts of one closure: the closer's live role
// (a non-User is never read: it is never the owner) and the HOLD the kept
// decisions put on the unit.
func (e *evaluator) closureFacts(ctx context.Context, in evalInput, cfg *config.Config, st *gh.IssueClosure, j judgeClosure) (closure.Facts, error) {
	c, _ := workunit.ParseContract(st.Body)
	f := closure.Facts{Number: j.issue, StateReason: st.StateReason, Owners: cfg.Owners, Risk: string(c.Risk), Prefix: cfg.CommandPrefix,
		ClosedBy: closure.Actor{Login: j.by, Type: j.byType}}
	f.ClosedAt, _ = time.Parse(time.RFC3339, st.ClosedAt)
	if j.byType == "User" {
		role, err := e.roles.Role(ctx, in.owner, in.repo, j.by)
		if err != nil {
			return f, err
		}
		f.ClosedBy.Permission = role
	}
	prev, err := e.storedFacts(ctx, in.owner+"/"+in.repo, j.issue)
	if err != nil {
		return f, err
	}
	f.Commands = prev.Commands // the owner's `/aep close` outlives a reopening
	hold, err := e.holdOn(ctx, in, j.issue, cfg.CommandPrefix)
	f.Hold = hold
	return f, err
}

// holdOn is the HOLD the kept decisions put on unit, "" when none.
func (e *evaluator) holdOn(ctx context.Context, in evalInput, unit int, prefix string) (string, error) {
	rows, err := e.kept.KeptDecisions(ctx, in.owner+"/"+in.repo)
	if err != nil {
		return "", err
	}
	var kept []gatelog.Kept
	for _, r := range rows {
		var it gatelog.Item
		if err := json.Unmarshal(r.Item, &it); err != nil {
			return "", fmt.Errorf("kept decision %d of %s/%s: %w", r.ItemID, in.owner, in.repo, err)
		}
		if it.Source.Kind == gatelog.ControlIssue || r.Unit == unit {
			kept = append(kept, gatelog.Kept{Item: it, Change: r.Tamper})
		}
	}
	return verdict.HoldOn(kept, unit, prefix), nil
}
