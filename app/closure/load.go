package closure

import (
	"context"
	"fmt"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/protocol/closurerules"
)

// Facts reads a repository's stored closure facts and the App's evidence
// (store.DB).
type Facts interface {
	Closures(ctx context.Context, repo string) (map[int][]byte, error)
	UnitEvidence(ctx context.Context, repo string) (map[int][][]byte, error)
}

// Load puts repo's stored closure facts, joined with the App's evidence,
// on the evaluation, judged by rules (no GitHub read).
func Load(ctx context.Context, s Facts, repo string, ev *verdict.Evaluation, rules closurerules.Rules) error {
	facts, err := s.Closures(ctx, repo)
	if err != nil {
		return err
	}
	evidence, err := s.UnitEvidence(ctx, repo)
	if err != nil {
		return err
	}
	ev.Closures = map[int]closurerules.Facts{}
	for n, raw := range facts {
		f, err := verdict.ClosureFacts(raw, evidence[n])
		if err != nil {
			return fmt.Errorf("closure of %s#%d: %w", repo, n, err)
		}
		ev.Closures[n] = f
	}
	ev.ClosureRules = rules
	return nil
}
