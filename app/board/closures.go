package board

import (
	"context"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/closurerules"
)

// ClosureStore is the App's kept closure facts and evidence (store.DB), the
// facts protocol/closurerules judges when a unit counts as done.
type ClosureStore interface {
	// Closures are repo's kept closure facts, by unit.
	Closures(ctx context.Context, repo string) (map[int][]byte, error)
	// UnitEvidence is what the App wrote for each unit's merged attempts.
	UnitEvidence(ctx context.Context, repo string) (map[int][][]byte, error)
}

// closures judges each closed story of read whose closure facts the App
// keeps, with the App's closure rules: the board counts a story done by
// the same rule as the dependents' aepgate/work-unit. An unreadable row is
// skipped (the story then shows as not judged).
func (b *Boards) closures(ctx context.Context, repo string, ms []boardview.Milestone) (map[int]boardview.Closure, error) {
	facts, err := b.DB.Closures(ctx, repo)
	if err != nil {
		return nil, err
	}
	evidence, err := b.DB.UnitEvidence(ctx, repo)
	if err != nil {
		return nil, err
	}
	out := map[int]boardview.Closure{}
	for _, m := range ms {
		for _, is := range m.Issues {
			raw, ok := facts[is.Number]
			if is.Open || !ok {
				continue
			}
			f, err := verdict.ClosureFacts(raw, evidence[is.Number])
			if err != nil {
				b.Log.Warn("board: closure facts unreadable", "repo", repo, "issue", is.Number, "err", err)
				continue
			}
			f.Open = false
			out[is.Number] = boardview.Closure{Verdict: closurerules.Judge(f, b.rules()), AwaitsEvidence: f.AwaitsEvidence(mergedPulls(is)), ClosedAt: f.ClosedAt}
		}
	}
	return out, nil
}

// rules are the closure rules: the App's, or the defaults.
func (b *Boards) rules() closurerules.Rules {
	if b.ClosureRules != nil {
		return *b.ClosureRules
	}
	return closurerules.DefaultRules()
}

// mergedPulls are the numbers of is's merged attempts.
func mergedPulls(is boardview.Issue) []int {
	var out []int
	for _, p := range is.Pulls {
		if p.State == "MERGED" {
			out = append(out, p.Number)
		}
	}
	return out
}
