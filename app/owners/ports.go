// Package owners reads the owners a repository config names by source:
// with owners: {from: CODEOWNERS}, GitHub's CODEOWNERS file on the default
// branch, at the commit the config was read at (docs/config.md, "Owners
// per path").
package owners

import (
	"context"

	"github.com/aepgate/aepgate/internal/gh"
)

// FileReader reads files at a commit in one read (gh.Installation).
type FileReader interface {
	ReadFiles(ctx context.Context, owner, repo, sha string, paths []string) ([]gh.BlobFile, error)
}

var _ FileReader = (*gh.Installation)(nil)
