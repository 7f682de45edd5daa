package ghfake

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/aepgate/aepgate/internal/replay"
)

// GitRemote is where the App's clones (readback.Clones) fetch this fake's
// repositories from, since the fake speaks no git protocol: each call
// writes the repository's objects into a bare repository under origins
// (Repo.WriteGit) and names it as a file:// remote.
func (f *Fake) GitRemote(origins string) func(ctx context.Context, owner, repo string) (replay.Remote, error) {
	return func(_ context.Context, owner, repo string) (replay.Remote, error) {
		r := f.Repo(owner + "/" + repo)
		if r == nil {
			return replay.Remote{}, fmt.Errorf("ghfake: no repository %s/%s", owner, repo)
		}
		dir := filepath.Join(origins, owner, repo+".git")
		if err := r.WriteGit(dir); err != nil {
			return replay.Remote{}, err
		}
		return replay.Remote{URL: "file://" + dir}, nil
	}
}
