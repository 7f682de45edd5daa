package release

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/config"
)

// repoConfig is what the repository config says to verify a release
// against.
type repoConfig struct {
	inputs checks.ReleaseInputs
	// commit is the default-branch commit the config was read at.
	commit string
	// problem says why the config cannot be used ("" when it can); the
	// defaults then stand in, and the release cannot pass.
	problem string
}

// config reads the repository config from the default branch (one query)
// and takes the release keys from it, or the defaults when the file is
// absent.
func (j *Judge) config(ctx context.Context, in Input) (repoConfig, error) {
	snap, err := j.Src.Snapshot(ctx, gh.SnapshotRequest{Owner: in.Owner, Repo: in.Repo})
	if err != nil {
		return repoConfig{}, err
	}
	f := snap.Config
	out := repoConfig{commit: f.CommitSHA}
	cfg := config.Default()
	switch {
	case f.Unreadable != "":
		out.problem = "the App may not read it (grant Contents: read): " + f.Unreadable
	case f.Truncated:
		out.problem = "GitHub would not return the whole file"
	case f.Found:
		parsed, err := verdict.Config(f) // resolved over its base, if it extends one
		if err != nil {
			out.problem = configProblem(err)
		} else {
			cfg = parsed
		}
	}
	out.inputs = checks.ReleaseInputs{Manifest: cfg.Release.Manifest, Assets: cfg.Release.Assets, ConfigFound: f.Found && out.problem == ""}
	return out, nil
}

// configProblem names a parse failure by its first error and how many
// there are.
func configProblem(err error) string {
	var es config.Errors
	if !errors.As(err, &es) || len(es) == 0 {
		return err.Error()
	}
	first, _, _ := strings.Cut(es[0].Error(), "\n")
	if len(es) == 1 {
		return first
	}
	return fmt.Sprintf("%s (and %d more)", first, len(es)-1)
}
