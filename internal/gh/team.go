package gh

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/google/go-github/v62/github"
)

// maxTeamPages bounds the pages of one team's members read (100 each).
const maxTeamPages = 10

// TeamMembers are the logins of the members of team slug in organization
// org, read live (GET /orgs/{org}/teams/{team_slug}/members, which needs the
// App's "Members: read" organization permission; child teams' members
// included, as GitHub lists them). A team GitHub does not show (404) has no
// members: nobody counts through it. Any other failure is an error, so an
// evaluation that needs the team fails and is retried; it never counts as
// membership.
func (in *Installation) TeamMembers(ctx context.Context, org, slug string) ([]string, error) {
	what := fmt.Sprintf("members of team @%s/%s", org, slug)
	opts := &github.TeamListTeamMembersOptions{ListOptions: github.ListOptions{PerPage: 100}}
	var out []string
	for page := 0; page < maxTeamPages; page++ {
		users, resp, err := in.rest.Teams.ListTeamMembersBySlug(ctx, org, slug, opts)
		if err != nil {
			var ge *github.ErrorResponse
			if errors.As(err, &ge) && ge.Response != nil && ge.Response.StatusCode == http.StatusNotFound {
				return nil, nil
			}
			return nil, classify(what, err)
		}
		for _, u := range users {
			out = append(out, u.GetLogin())
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		opts.Page = resp.NextPage
	}
	return nil, fmt.Errorf("%s: more than %d members", what, maxTeamPages*100)
}
