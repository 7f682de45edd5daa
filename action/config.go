package action

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/aepgate/aepgate/internal/readfile"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/gitsha"
)

// loadConfig reads the repository config. On a pull request with a token it
// reads the file at the base commit through the API, so a pull request can
// never change the policy that judges it (docs/action.md); otherwise it
// reads the checked-out file (a regular file of at most 1 MB, through
// internal/readfile). A missing file means the defaults; a file that does
// not parse, or cannot be read, is an error. The note says where the policy came from.
func (r *runner) loadConfig(ctx context.Context) (*config.Config, string, error) {
	name := r.in.Config
	if pr := r.ev.PR; pr != nil && r.api.Files != nil && pr.BaseSHA != "" {
		data, found, err := r.api.Files.ReadFile(ctx, r.ev.Owner, r.ev.Repo, name, pr.BaseSHA)
		if err != nil {
			return nil, "", fmt.Errorf("read the config from the base commit: %w", err)
		}
		where := fmt.Sprintf("%s at the base commit %s (a pull request cannot change its own policy)", name, gitsha.Short(pr.BaseSHA))
		if !found {
			return config.Default(), fmt.Sprintf("no %s at the base commit %s: defaults apply", name, gitsha.Short(pr.BaseSHA)), nil
		}
		cfg, err := config.Parse(name, data)
		return cfg, where, err
	}
	data, err := readfile.File(ctx, filepath.Join(r.ev.Workspace, filepath.FromSlash(name)), readfile.Config)
	if errors.Is(err, fs.ErrNotExist) {
		return config.Default(), fmt.Sprintf("no %s in the workspace: defaults apply", name), nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("read the config: %w", err)
	}
	where := name + " from the workspace"
	switch {
	case r.ev.PR == nil:
	case r.in.Token == "":
		where += " (no token to read the base commit's copy, so the pull request's own copy applies)"
	default:
		where += " (the base commit's copy was not read, so the pull request's own copy applies)"
	}
	cfg, err := config.Parse(name, data)
	return cfg, where, err
}
