package app

import (
	"context"
	"errors"

	"github.com/aepgate/aepgate/app/owners"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/protocol/config"
)

// readOwners reads the owners from the source the config names
// (owners.Resolve: CODEOWNERS on the default branch, one read per
// evaluation, at the commit the config was read at). A file that is
// missing or refused makes the config unusable for this evaluation, as an
// invalid config is: nobody's authority is judged. A failed read fails the
// evaluation, to be retried.
func (e *evaluator) readOwners(ctx context.Context, in evalInput, ev *verdict.Evaluation) error {
	cfg, err := owners.Resolve(ctx, e.files, in.owner, in.repo, ev.Snap.Config.CommitSHA, ev.Cfg)
	var probs config.Errors
	var unusable *owners.Unusable
	switch {
	case errors.As(err, &probs):
		ev.Cfg, ev.CfgErrs = nil, probs
	case errors.As(err, &unusable):
		ev.Cfg, ev.CfgOther = nil, err
	case err != nil:
		return err
	default:
		ev.Cfg = cfg
	}
	return nil
}
