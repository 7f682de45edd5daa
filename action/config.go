package action

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/google/go-github/v62/github"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/config"
)

// loadConfig reads the repository config. On a pull request with a token it
// reads the file at the base commit through the API, so a pull request can
// never change the policy that judges it (docs/action.md); otherwise it
// reads the checked-out file. A missing file means the defaults; a file that does not
// parse is an error. The note says where the policy came from.
//
// policyFromBase switches the base-commit read off in tests, to show that
// the pull request's own copy would otherwise judge it (negative control).
func (r *runner) loadConfig(ctx context.Context, client *github.Client) (*config.Config, string, error) {
	name := r.in.Config
	if pr := r.ev.PR; pr != nil && client != nil && pr.BaseSHA != "" && policyFromBase {
		data, found, err := gh.ReadRepoFile(ctx, client, r.ev.Owner, r.ev.Repo, name, pr.BaseSHA)
		if err != nil {
			return nil, "", fmt.Errorf("read the config from the base commit: %w", err)
		}
		where := fmt.Sprintf("%s at the base commit %s (a pull request cannot change its own policy)", name, shortSHA(pr.BaseSHA))
		if !found {
			return config.Default(), fmt.Sprintf("no %s at the base commit %s: defaults apply", name, shortSHA(pr.BaseSHA)), nil
		}
		cfg, err := config.Parse(name, data)
		return cfg, where, err
	}
	data, err := os.ReadFile(filepath.Join(r.ev.Workspace, filepath.FromSlash(name)))
	if errors.Is(err, os.ErrNotExist) {
		return config.Default(), fmt.Sprintf("no %s in the workspace: defaults apply", name), nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("read the config: %w", err)
	}
	where := name + " from the workspace"
	if r.ev.PR != nil {
		where += " (no token to read the base commit's copy, so the pull request's own copy applies)"
	}
	cfg, err := config.Parse(name, data)
	return cfg, where, err
}

var policyFromBase = true

func shortSHA(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}
