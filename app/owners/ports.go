// Package owners is the one resolver of people (docs/config.md, "Who is
// resolved where"): the owners, coordinators, auditors and agents a
// repository config names — as logins, as teams ("@org/slug") or, for the
// owners, from CODEOWNERS (owners: {from: CODEOWNERS}) — become logins, the
// same for every judge: pull-request checks, closures, `/aep close`,
// deploy gates, increments and `/aep accept`, the answers to commands, the
// board and simulate. A config that extends a base is resolved over it
// first (app/verdict.Config); its people are resolved here. A source the
// App cannot read is *Unusable, and every judge fails closed on it.
package owners

import (
	"context"

	"github.com/aepgate/aepgate/internal/gh"
)

// FileReader reads files at a commit in one read (gh.Installation).
type FileReader interface {
	ReadFiles(ctx context.Context, owner, repo, sha string, paths []string) ([]gh.BlobFile, error)
}

// Teams reads a team's members live (gh.Installation). A refusal is a
// *gh.TeamUnreadable.
type Teams interface {
	TeamMembers(ctx context.Context, org, slug string) ([]string, error)
}

// Source is what resolving people reads (gh.Installation).
type Source interface {
	FileReader
	Teams
}

var _ Source = (*gh.Installation)(nil)
