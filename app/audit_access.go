package app

import (
	"context"
	"fmt"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/review"
)

// roleReader reads a user's live role on a repository (gh.Installation).
type roleReader interface {
	Role(ctx context.Context, owner, repo, login string) (string, error)
}

// pusherReader returns who was recorded pushing commits (store.DB).
type pusherReader interface {
	Pushers(ctx context.Context, repo string, shas []string) ([]store.Pusher, error)
}

// readAuditAccess reads, once per evaluation, the live role of every
// reviewer who wrote an aep-audit block and who was recorded pushing the
// pull request's commits. A failed look-up fails the evaluation, to be
// retried: it never counts as a role.
func (e *evaluator) readAuditAccess(ctx context.Context, in evalInput, ev *verdict.Evaluation) error {
	p := ev.Snap.Pull
	if p == nil || ev.Cfg == nil {
		return nil
	}
	for _, r := range p.Reviews {
		login := r.Author.Login
		if login == "" || !review.HasBlock(r.Body) {
			continue
		}
		if _, err := e.roleOf(ctx, in, ev, login); err != nil {
			return fmt.Errorf("auditor access: %w", err)
		}
	}
	shas := make([]string, 0, len(p.Commits)+1)
	shas = append(shas, p.HeadSHA)
	for _, c := range p.Commits {
		shas = append(shas, c.SHA)
	}
	pushed, err := e.pushers.Pushers(ctx, in.owner+"/"+in.repo, shas)
	if err != nil {
		return fmt.Errorf("auditor access: %w", err)
	}
	ev.Pushers = nil
	for _, ps := range pushed {
		ev.Pushers = append(ev.Pushers, review.Push{SHA: ps.SHA, Login: ps.Login})
	}
	return nil
}
