package owners_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/owners"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
)

// staleTeams remembers the first answer for each team: the negative
// control of reading membership live.
type staleTeams struct {
	owners.Teams
	mu   sync.Mutex
	seen map[string][]string
}

func (s *staleTeams) TeamMembers(ctx context.Context, org, slug string) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m, ok := s.seen[org+"/"+slug]; ok {
		return m, nil
	}
	m, err := s.Teams.TeamMembers(ctx, org, slug)
	if err == nil {
		s.seen[org+"/"+slug] = m
	}
	return m, err
}

// TestTeamOwners: an owner listed as a team (@acme/leads) counts through
// its members, read live on every evaluation: dana's RESUME, as a member,
// lifts olivia's HOLD; once dana has left the team her next RESUME is
// refused. With membership remembered from the first read (the negative
// control), the former member's RESUME lifts the HOLD.
func TestTeamOwners(t *testing.T) {
	for _, tt := range []struct {
		name  string
		stale bool
		want  string
	}{
		{"membership read live", false, "action_required"},
		{"membership remembered", true, "success"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := appkit.NewGatesWorldOpts(t, func(o *app.Options) {
				if tt.stale {
					// One memory across every job's evaluator.
					shared := &staleTeams{seen: map[string][]string{}}
					o.Seams.Teams = func(r owners.Teams) owners.Teams {
						shared.mu.Lock()
						defer shared.mu.Unlock()
						if shared.Teams == nil {
							shared.Teams = r
						}
						return shared
					}
				}
			})
			g.Repo.Grant("dana", "write")
			g.F.SetTeam("acme", "leads", "dana")
			g.Repo.Commit("main", "owners by team", map[string]string{".github/aepgate.yml": "version: 1\nowners: [olivia, \"@acme/leads\"]\ncoordinators: [cody]\n"})
			g.Unit.Comment("olivia", "/aep hold waiting for legal")
			g.WaitGates(t, "action_required")
			resume := g.Unit.Comment("dana", "/aep resume")
			g.WaitGates(t, "success")
			if got := g.WaitReaction(t, resume.ID()); !slices.Contains(got, "+1") {
				t.Fatalf("the member's RESUME got %v", got)
			}
			g.Unit.Comment("olivia", "/aep hold again")
			g.WaitGates(t, "action_required")
			g.F.SetTeam("acme", "leads", "erin")
			again := g.Unit.Comment("dana", "/aep resume")
			g.WaitReaction(t, again.ID())
			g.Quiet(t)
			if got := g.Gates().Conclusion; got != tt.want {
				t.Errorf("after the former member's RESUME aepgate/gates is %s, want %s", got, tt.want)
			}
		})
	}
}
