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

// TeamUnreadable is TeamMembers' error when GitHub refuses to list a
// team's members: 403 (the installation has not granted the organization
// permission "Members: read") or 404 (GitHub shows no such team to the
// App, which is also its answer without the permission). It is not
// transient: reading again gives the same answer until the permission is
// granted or the config names a team that exists.
type TeamUnreadable struct {
	Org, Slug string
	// Status is GitHub's answer: 403 or 404.
	Status int
}

func (e *TeamUnreadable) Error() string {
	return fmt.Sprintf("members of team @%s/%s: GitHub answered %d", e.Org, e.Slug, e.Status)
}

// TeamMembers are the logins of the members of team slug in organization
// org, read live (GET /orgs/{org}/teams/{team_slug}/members, which needs the
// App's "Members: read" organization permission; child teams' members
// included, as GitHub lists them). A refusal (403 without rate limiting, or
// 404) is a *TeamUnreadable: it never counts as membership, nor as a team
// without members. Any other failure is an error to retry.
//
// https://docs.github.com/en/rest/teams/members#list-team-members
func (in *Installation) TeamMembers(ctx context.Context, org, slug string) ([]string, error) {
	what := fmt.Sprintf("members of team @%s/%s", org, slug)
	return teamMembers(ctx, in.rest, org, slug, what, func(err error) error { return teamError(what, org, slug, err) })
}

// teamMembers pages through the members of team slug in org with c, 100 a
// page and maxTeamPages pages at most (the App's and the Action's reads);
// a failed read is refused's error for it.
func teamMembers(ctx context.Context, c *github.Client, org, slug, what string, refused func(error) error) ([]string, error) {
	opts := &github.TeamListTeamMembersOptions{ListOptions: github.ListOptions{PerPage: 100}}
	var out []string
	for page := 0; page < maxTeamPages; page++ {
		users, resp, err := c.Teams.ListTeamMembersBySlug(ctx, org, slug, opts)
		if err != nil {
			return nil, refused(err)
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

// teamError classifies a failed members read: a rate limit stays one (to
// wait out), a 404 or another 403 is a *TeamUnreadable.
func teamError(what, org, slug string, err error) error {
	var typed *RateLimitError
	if errors.As(err, &typed) {
		return fmt.Errorf("%s: %w", what, err)
	}
	if rl := asRateLimit(err); rl != nil {
		return fmt.Errorf("%s: %w: %w", what, rl, err)
	}
	var ge *github.ErrorResponse
	if errors.As(err, &ge) && ge.Response != nil {
		switch ge.Response.StatusCode {
		case http.StatusForbidden, http.StatusNotFound:
			return &TeamUnreadable{Org: org, Slug: slug, Status: ge.Response.StatusCode}
		}
	}
	return fmt.Errorf("%s: %w", what, err)
}
