package app

import (
	"context"
	"time"

	aclosure "github.com/aepgate/aepgate/app/closure"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/closure"
)

// unitStore keeps closure facts and the App's own evidence (store.DB).
type unitStore interface {
	SaveClosure(ctx context.Context, repo string, unit int, facts []byte, e store.Entry, now time.Time) error
	Closures(ctx context.Context, repo string) (map[int][]byte, error)
	MarkClosureCommented(ctx context.Context, repo string, unit int, key string) (bool, error)
	UnitEvidence(ctx context.Context, repo string) (map[int][][]byte, error)
	SaveUnitEvidence(ctx context.Context, repo string, unit, pr int, attempt []byte, now time.Time) error
}

// closureStore is app/closure's store: the unit store and the kept
// decisions a HOLD comes from.
type closureStore struct {
	unitStore
	keeper
}

// closureRules are the rules deciding when a unit counts as done: the
// defaults unless a test put a variant in Options.
func (a *App) closureRules() closure.Rules {
	if a.opts.Seams.ClosureRules != nil {
		return *a.opts.Seams.ClosureRules
	}
	return closure.DefaultRules()
}

// closures is the closure judge (app/closure) for in: it judges the
// affected pull requests again through judgeOpen.
func (e *evaluator) closures(in evalInput) *aclosure.Judge {
	return &aclosure.Judge{Issues: e.issues, Roles: e.roles, Store: closureStore{e.units, e.kept}, Ledger: e.w, Rules: e.closureRules, Log: e.log, People: e.people,
		Contracts: e.contracts,
		JudgeOpen: func(ctx context.Context, unit int) error { return e.judgeOpen(ctx, in, unit, nil) }}
}

func closureInput(in evalInput) aclosure.Input {
	return aclosure.Input{Delivery: in.delivery, Owner: in.owner, Repo: in.repo}
}

// keepEvidence keeps what the App wrote for a merged attempt of unit and
// judges again the open pull requests it affects (app/closure).
func (e *evaluator) keepEvidence(ctx context.Context, w route.Where, unit int, a closure.Attempt) error {
	return e.closures(input(w)).Evidence(ctx, closureInput(input(w)), unit, a)
}

// loadClosures puts the repository's stored closure facts, joined with
// the App's evidence, on the evaluation (aclosure.Load).
func (e *evaluator) loadClosures(ctx context.Context, in evalInput, ev *verdict.Evaluation) error {
	return aclosure.Load(ctx, e.units, in.owner+"/"+in.repo, ev, e.closureRules)
}
