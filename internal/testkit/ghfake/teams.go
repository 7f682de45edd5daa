package ghfake

import (
	"net/http"
	"slices"
	"strings"
)

// SetTeam makes team slug of organization org have exactly members (none
// removes the team): what GET /orgs/{org}/teams/{team_slug}/members lists
// from then on.
func (f *Fake) SetTeam(org, slug string, members ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.teams == nil {
		f.teams = map[string][]string{}
	}
	k := strings.ToLower(org + "/" + slug)
	if len(members) == 0 {
		delete(f.teams, k)
		return
	}
	for _, m := range members {
		f.ensureUser(m)
	}
	f.teams[k] = slices.Clone(members)
}

// teamRoutes serves a team's members (GitHub's REST "List team members",
// which needs the organization permission members: read). A team the fake
// does not hold is 404, as GitHub answers for a team it does not show.
func (f *Fake) teamRoutes() {
	f.handle("GET /orgs/{org}/teams/{team_slug}/members", read("members"), func(c *call) (int, any) {
		members, ok := c.f.teams[strings.ToLower(c.r.PathValue("org")+"/"+c.r.PathValue("team_slug"))]
		if !ok {
			return notFound()
		}
		out := []any{}
		for _, m := range members {
			out = append(out, c.f.userJSON(c.f.users[strings.ToLower(m)]))
		}
		return http.StatusOK, c.page(out)
	})
}
