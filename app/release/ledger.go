package release

import (
	"fmt"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/refusal"
	"github.com/aepgate/aepgate/protocol/releaserules"
)

// tokenConfig is aepgate's own refusal (not craft's): the repository
// config that says what to verify cannot be used.
const tokenConfig = "config-invalid"

// entry is a release decision's ledger row.
func entry(in Input, cfg repoConfig, c gh.ReleaseClosure, run checks.Run, write bool) store.Entry {
	return store.Entry{
		Kind: "check_run:" + checks.NameAppRelease, DeliveryID: in.Delivery,
		Subject: fmt.Sprintf("%s/%s@%s", in.Owner, in.Repo, in.Tag),
		Body: map[string]any{
			"event": in.Event, "repository": in.Owner + "/" + in.Repo, "tag": in.Tag, "commit": c.Commit,
			"config_commit": cfg.commit, "config_valid": cfg.problem == "", "manifest": cfg.inputs.Manifest,
			"assets": cfg.inputs.Assets, "closed": c.Result.Closed, "errors": c.Result.Errors,
			"conclusion": run.Conclusion, "title": run.Title, "write": write,
		},
	}
}

// withConfigProblem adds the refusal for an unusable config: the release
// was verified with the defaults, and cannot pass.
func withConfigProblem(res releaserules.Result, problem string) releaserules.Result {
	if problem == "" {
		return res
	}
	rf := refusal.Refusal{Token: tokenConfig, Expected: "a valid " + config.DefaultPath + " on the default branch (aepgate/config on a pull request lists its errors)", Seen: problem}
	res.Refusals = append([]refusal.Refusal{rf}, res.Refusals...)
	res.Errors = refusal.Tokens(res.Refusals)
	res.Closed = false
	return res
}
