package appkit

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/internal/replay"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// FakeClones are the App's clones (readback.Clones, fetching with git)
// for the fake at url: each fetch first writes the fake repository's
// objects into a bare repository of the test (ghfake's Repo.WriteGit) and
// fetches from it as a file:// remote, since the fake speaks no git
// protocol. StartOn gives them to every App that has no other coverage
// source.
func FakeClones(t testing.TB, url string) *readback.Clones {
	origins := filepath.Join(t.TempDir(), "origins")
	return &readback.Clones{Dir: filepath.Join(t.TempDir(), "clones"), Remote: func(ctx context.Context, owner, repo string) (replay.Remote, error) {
		f := ghfake.ByURL(url)
		if f == nil {
			return replay.Remote{}, fmt.Errorf("appkit: no fake GitHub at %q", url)
		}
		return f.GitRemote(origins)(ctx, owner, repo)
	}}
}
