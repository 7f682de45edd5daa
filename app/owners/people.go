package owners

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/config"
)

// Resolver resolves the people of cfg, read on the default branch of
// owner/repo at commit, through src. People is the resolver; a test
// passes another to show what it stops.
type Resolver func(ctx context.Context, src Source, owner, repo, commit string, cfg *config.Config) (*config.Config, error)

// People is cfg with its people resolved, the one resolution every judge
// uses: the owners from CODEOWNERS when the config says so, then every team
// named among the owners (path owners and CODEOWNERS lines included),
// coordinators, auditors and agents replaced by its members, read live
// once per team (config.WithMembers). cfg is unchanged. A source that
// cannot be read is *Unusable, naming the file or the permission missing;
// a refused CODEOWNERS line is config.Errors; any other failed read is an
// error to retry: none ever counts as membership.
func People(ctx context.Context, src Source, owner, repo, commit string, cfg *config.Config) (*config.Config, error) {
	cfg, err := codeOwners(ctx, src, owner, repo, commit, cfg)
	if err != nil || cfg == nil {
		return cfg, err
	}
	teams := cfg.Teams()
	if len(teams) == 0 {
		return cfg, nil
	}
	members := map[string][]string{}
	for _, t := range teams {
		m, err := src.TeamMembers(ctx, t.Org, t.Slug)
		if err != nil {
			return nil, teamError(t, err)
		}
		members[t.Key()] = m
	}
	return cfg.WithMembers(members), nil
}

// teamError is err of reading team t's members: *Unusable, saying which
// permission or name to fix, when GitHub refused (gh.TeamUnreadable).
func teamError(t config.Team, err error) error {
	var refused *gh.TeamUnreadable
	if !errors.As(err, &refused) {
		return fmt.Errorf("team %s: %w", t, err)
	}
	if refused.Status == http.StatusNotFound {
		return &Unusable{Why: fmt.Sprintf("the App cannot read team %s's members: GitHub shows it no such team (404) — "+
			"check the team's name in the config, and that the installation has granted `members: read` "+
			"(accept the App's new permissions in the organization's settings)", t)}
	}
	return &Unusable{Why: fmt.Sprintf("the App cannot read team %s's members: the installation has not granted `members: read` (GitHub answered %d) — "+
		"accept the App's new permissions in the organization's settings", t, refused.Status)}
}

// Reader resolves people through Files and Teams with Resolve (nil:
// People). A judge holds one.
type Reader struct {
	Files   FileReader
	Teams   Teams
	Resolve Resolver
}

// People is cfg with its people resolved (Resolver).
func (r Reader) People(ctx context.Context, owner, repo, commit string, cfg *config.Config) (*config.Config, error) {
	resolve := r.Resolve
	if resolve == nil {
		resolve = People
	}
	return resolve(ctx, source(r), owner, repo, commit, cfg)
}

// errNoReader is the error of a Reader missing the reader a source needs.
var errNoReader = errors.New("resolve people: no reader for this source")

// source is a Reader as a Source; a missing reader fails its reads.
type source Reader

func (s source) ReadFiles(ctx context.Context, owner, repo, sha string, paths []string) ([]gh.BlobFile, error) {
	if s.Files == nil {
		return nil, errNoReader
	}
	return s.Files.ReadFiles(ctx, owner, repo, sha, paths)
}

func (s source) TeamMembers(ctx context.Context, org, slug string) ([]string, error) {
	if s.Teams == nil {
		return nil, errNoReader
	}
	return s.Teams.TeamMembers(ctx, org, slug)
}
