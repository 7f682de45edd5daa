package closure

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/config"
)

// keep stores the closure's facts with its ledger row and returns its
// verdict, judged with the App's evidence for the unit's attempts.
func (j *Judge) keep(ctx context.Context, in Input, f closurerules.Facts, st *gh.IssueClosure) (closurerules.Verdict, error) {
	raw, err := json.Marshal(f)
	if err != nil {
		return closurerules.Verdict{}, fmt.Errorf("closure facts: %w", err)
	}
	evidence, err := j.Store.UnitEvidence(ctx, in.repo())
	if err != nil {
		return closurerules.Verdict{}, err
	}
	full, err := verdict.ClosureFacts(raw, evidence[f.Number])
	if err != nil {
		return closurerules.Verdict{}, err
	}
	v := closurerules.Judge(full, j.Rules)
	entry := store.Entry{Kind: "closure", DeliveryID: in.Delivery, Subject: fmt.Sprintf("%s#%d", in.repo(), f.Number),
		Body: map[string]any{"closed_at": st.ClosedAt, "closed_by": f.ClosedBy, "state_reason": f.StateReason, "hold": f.Hold,
			"state": v.State, "evidence": v.Evidence, "missing": v.Missing, "merged_attempts": st.MergedAttempts}}
	if err := j.Store.SaveClosure(ctx, in.repo(), f.Number, raw, entry, time.Now()); err != nil {
		return closurerules.Verdict{}, err
	}
	j.Log.Info("closure judged", "issue", f.Number, "state", v.State, "closer", f.ClosedBy.Login)
	if v.State == closurerules.WithoutEvidence && full.AwaitsEvidence(st.MergedAttempts) {
		// Closed by its attempt's merge: the readback and certificate come
		// after; dependents stay blocked until they do.
		return closurerules.Verdict{Number: f.Number, State: closurerules.Open}, nil
	}
	return v, nil
}

// answer answers a closure without evidence once per closure: with
// closure.reopen the issue is reopened first; then one comment says what
// is missing and the owner's command.
func (j *Judge) answer(ctx context.Context, in Input, cfg *config.Config, st *gh.IssueClosure, v closurerules.Verdict) error {
	fresh, err := j.Store.MarkClosureCommented(ctx, in.repo(), v.Number, st.ClosedAt)
	if err != nil || !fresh {
		return err
	}
	if cfg.Closure.Reopen {
		if err := j.Issues.ReopenIssue(ctx, in.Owner, in.Repo, v.Number); err != nil {
			return err
		}
	}
	_, err = j.Issues.Comment(ctx, in.Owner, in.Repo, v.Number, verdict.ClosureComment(v, cfg.Closure.Reopen))
	return err
}

// Evidence keeps what the App wrote for a merged attempt of unit (its
// readback, its certificate) and judges again the open pull requests the
// unit affects: a dependency may now count as done.
func (j *Judge) Evidence(ctx context.Context, in Input, unit int, a closurerules.Attempt) error {
	raw, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("closure evidence: %w", err)
	}
	if err := j.Store.SaveUnitEvidence(ctx, in.repo(), unit, a.PR, raw, time.Now()); err != nil {
		return err
	}
	return j.JudgeOpen(ctx, unit)
}

// stored are the unit's stored closure facts (zero when none).
func (j *Judge) stored(ctx context.Context, repo string, unit int) (closurerules.Facts, error) {
	rows, err := j.Store.Closures(ctx, repo)
	if err != nil {
		return closurerules.Facts{}, err
	}
	raw, ok := rows[unit]
	if !ok {
		return closurerules.Facts{}, nil
	}
	return verdict.ClosureFacts(raw, nil)
}

// holdOn is the HOLD the kept decisions put on unit, "" when none.
func (j *Judge) holdOn(ctx context.Context, in Input, unit int, prefix string) (string, error) {
	rows, err := j.Store.KeptDecisions(ctx, in.repo())
	if err != nil {
		return "", err
	}
	kept, err := verdict.KeptHolds(rows, in.repo(), unit)
	if err != nil {
		return "", err
	}
	return verdict.HoldOn(kept, unit, prefix), nil
}
