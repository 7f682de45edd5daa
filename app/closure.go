package app

import (
	"context"

	"github.com/aepgate/aepgate/app/closure"
	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/closurerules"
)

// closureStore is app/closure's store: the App's database, with the kept
// decisions a HOLD comes from read through the kept store (the Options'
// seam).
type closureStore struct {
	closure.Store
	kept pull.KeptReader
}

func (s closureStore) KeptDecisions(ctx context.Context, repo string) ([]store.Kept, error) {
	return s.kept.KeptDecisions(ctx, repo)
}

// closureRules are the rules deciding when a unit counts as done: the
// defaults unless a test put a variant in Options.
func (a *App) closureRules() closurerules.Rules {
	if a.opts.Seams.ClosureRules != nil {
		return *a.opts.Seams.ClosureRules
	}
	return closurerules.DefaultRules()
}

// closures is the closure judge (app/closure) of j's installation: it
// judges the affected pull requests again through the pull judge.
func (a *App) closures(j *judges, w route.Where) *closure.Judge {
	return &closure.Judge{Issues: j.gh, Roles: j.gh, Store: closureStore{a.db, j.kept}, Ledger: j.w, Rules: a.closureRules(), Log: j.log, People: j.people,
		Contracts: j.contracts,
		JudgeOpen: func(ctx context.Context, unit int) error { return j.pull.Open(ctx, input(w), unit, nil) }}
}

func closureInput(w route.Where) closure.Input {
	return closure.Input{Delivery: w.Delivery, Owner: w.Owner, Repo: w.Repo}
}
