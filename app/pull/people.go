package pull

import (
	"context"
	"errors"

	"github.com/aepgate/aepgate/app/owners"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/protocol/config"
)

// readPeople resolves the config's people with the one resolver
// (owners.People: CODEOWNERS on the default branch at the commit the config
// was read at, then the teams' members, each read once per evaluation). A
// source that cannot be read (owners.Unusable: no CODEOWNERS, or no
// members: read) or a refused CODEOWNERS line makes the config unusable for
// this evaluation, as an invalid config is: nobody's authority is judged,
// every check says why, and nothing is retried. Another failed read fails
// the evaluation, to be retried: it never counts as membership.
func (j *Judge) readPeople(ctx context.Context, in Input, ev *verdict.Evaluation) error {
	cfg, err := j.Reads.People.People(ctx, in.Owner, in.Repo, ev.Snap.Config.CommitSHA, ev.Cfg)
	var probs config.Errors
	var unusable *owners.Unusable
	switch {
	case errors.As(err, &probs):
		ev.Cfg, ev.CfgErrs = nil, probs
	case errors.As(err, &unusable):
		ev.Cfg, ev.CfgOther, ev.Unresolved = nil, err, unusable.Why
	case err != nil:
		return err
	default:
		ev.Cfg = cfg
	}
	return nil
}
