package owners

import (
	"context"
	"errors"
	"strings"

	"github.com/aepgate/aepgate/protocol/config"
)

// Resolved is cfg with its people resolved (Reader.People), for a judge
// that acts on it whatever the sources say: a closure, `/aep close`, a
// deployment, an increment. When a source cannot be read (Unusable) or
// CODEOWNERS has a line GitHub would refuse, problem says why and the
// config returned lists no owners, path owners, coordinators, auditors or
// agents: nobody's authority counts, so the judge fails closed and says
// problem. Any other failed read is an error to retry.
func (r Reader) Resolved(ctx context.Context, owner, repo, commit string, cfg *config.Config) (out *config.Config, problem string, err error) {
	got, err := r.People(ctx, owner, repo, commit, cfg)
	var unusable *Unusable
	var probs config.Errors
	switch {
	case errors.As(err, &unusable):
		return Nobody(cfg), unusable.Why, nil
	case errors.As(err, &probs):
		first, _, _ := strings.Cut(probs.Error(), "\n")
		return Nobody(cfg), "owners come from CODEOWNERS, but GitHub would refuse a line of it: " + first, nil
	case err != nil:
		return nil, "", err
	}
	return got, "", nil
}

// Nobody is a copy of cfg that names no people: no owners (path owners and
// CODEOWNERS included), coordinators, auditors or agents.
func Nobody(cfg *config.Config) *config.Config {
	out := *cfg
	out.Owners, out.PathOwners, out.CodeOwners = nil, nil, nil
	out.Coordinators, out.Auditors, out.Agents = nil, nil, nil
	return &out
}
