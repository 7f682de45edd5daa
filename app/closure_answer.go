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
)

// keepClosure stores the closure's facts with its ledger row and returns
// its verdict, judged with the App's evidence for the unit's attempts.
func (e *evaluator) keepClosure(ctx context.Context, in evalInput, f closure.Facts, st *gh.IssueClosure) (closure.Verdict, error) {
	repo := in.owner + "/" + in.repo
	raw, err := json.Marshal(f)
	if err != nil {
		return closure.Verdict{}, fmt.Errorf("closure facts: %w", err)
	}
	_, evidence, err := e.closureRows(ctx, repo)
	if err != nil {
		return closure.Verdict{}, err
	}
	full, err := verdict.ClosureFacts(raw, evidence[f.Number])
	if err != nil {
		return closure.Verdict{}, err
	}
	v := closure.Judge(full, e.closureRules)
	entry := store.Entry{Kind: "closure", DeliveryID: in.delivery, Subject: fmt.Sprintf("%s#%d", repo, f.Number),
		Body: map[string]any{"closed_at": st.ClosedAt, "closed_by": f.ClosedBy, "state_reason": f.StateReason, "hold": f.Hold,
			"state": v.State, "evidence": v.Evidence, "missing": v.Missing, "merged_attempts": st.MergedAttempts}}
	if err := e.units.SaveClosure(ctx, repo, f.Number, raw, entry, time.Now()); err != nil {
		return closure.Verdict{}, err
	}
	e.log.Info("closure judged", "issue", f.Number, "state", v.State, "closer", f.ClosedBy.Login)
	if v.State == closure.WithoutEvidence && full.AwaitsEvidence(st.MergedAttempts) {
		// Closed by its attempt's merge: the readback and certificate come
		// after; dependents stay blocked until they do.
		return closure.Verdict{Number: f.Number, State: closure.Open}, nil
	}
	return v, nil
}

// answerClosure answers a closure without evidence once per closure: with
// closure.reopen the issue is reopened first; then one comment says what
// is missing and the owner's command.
func (e *evaluator) answerClosure(ctx context.Context, in evalInput, cfg *config.Config, st *gh.IssueClosure, v closure.Verdict) error {
	repo := in.owner + "/" + in.repo
	fresh, err := e.units.MarkClosureCommented(ctx, repo, v.Number, st.ClosedAt)
	if err != nil || !fresh {
		return err
	}
	if cfg.Closure.Reopen {
		if err := e.issues.ReopenIssue(ctx, in.owner, in.repo, v.Number); err != nil {
			return err
		}
	}
	_, err = e.issues.Comment(ctx, in.owner, in.repo, v.Number, verdict.ClosureComment(v, cfg.Closure.Reopen))
	return err
}

// keepEvidence keeps what the App wrote for a merged attempt of unit (its
// readback, its certificate) and judges again the open pull requests the
// unit affects: a dependency may now count as done.
func (e *evaluator) keepEvidence(ctx context.Context, w where, unit int, a closure.Attempt) error {
	raw, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("closure evidence: %w", err)
	}
	if err := e.units.SaveUnitEvidence(ctx, w.owner+"/"+w.repo, unit, a.PR, raw, time.Now()); err != nil {
		return err
	}
	return e.judgeOpen(ctx, w.input(), unit, nil)
}
