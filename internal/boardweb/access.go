package boardweb

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/internal/gh"
)

// accessFilter picks, from the repositories of the installations the
// person can reach (candidates), those the page may show them.
type accessFilter func(candidates []string, ua gh.UserAccess) []string

// readableOnly keeps the candidates GitHub listed for the person's token:
// being able to reach an installation is not being able to read all of its
// repositories.
func readableOnly(candidates []string, ua gh.UserAccess) []string {
	readable := map[string]bool{}
	for _, in := range ua.Installations {
		for _, r := range in.Repos {
			readable[strings.ToLower(r)] = true
		}
	}
	var out []string
	for _, c := range candidates {
		if readable[strings.ToLower(c)] {
			out = append(out, c)
		}
	}
	return out
}

// repos lists the repositories of the installations the person can reach,
// as the App sees them, and keeps those the filter allows, sorted and
// without duplicates.
func (p *Page) repos(ctx context.Context, ua gh.UserAccess) ([]string, error) {
	var candidates []string
	for _, in := range ua.Installations {
		rs, err := p.opts.Source.InstallationRepos(ctx, in.ID)
		if err != nil {
			return nil, fmt.Errorf("list the repositories of installation %d: %w", in.ID, err)
		}
		candidates = append(candidates, rs...)
	}
	kept := p.opts.filter(candidates, ua)
	slices.Sort(kept)
	return slices.Compact(kept), nil
}
