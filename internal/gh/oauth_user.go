package gh

import (
	"context"
	"fmt"

	"github.com/google/go-github/v62/github"
)

// UserAccess is what a user access token may see through the App: the
// person's login and, per installation, the repositories GitHub lists for
// that token (those the person holds a role on).
type UserAccess struct {
	Login         string
	Installations []UserInstallation
}

// UserInstallation is one installation of the App the person can reach,
// with the repositories of it they can read ("owner/name").
type UserInstallation struct {
	ID      int64
	Account string
	Repos   []string
}

// UserAccess reads, with token, who the person is and the installations
// and repositories the token can access, 100 a page.
//
// https://docs.github.com/rest/users/users#get-the-authenticated-user
// https://docs.github.com/rest/apps/installations#list-app-installations-accessible-to-the-user-access-token
// https://docs.github.com/rest/apps/installations#list-repositories-accessible-to-the-user-access-token
func (o *OAuth) UserAccess(ctx context.Context, token string) (UserAccess, error) {
	c, err := NewTokenClient(o.apiURL, token, o.hc)
	if err != nil {
		return UserAccess{}, err
	}
	u, _, err := c.Users.Get(ctx, "")
	if err != nil {
		return UserAccess{}, fmt.Errorf("read the signed-in user: %w", err)
	}
	out := UserAccess{Login: u.GetLogin()}
	opts := &github.ListOptions{PerPage: 100}
	for {
		page, resp, err := c.Apps.ListUserInstallations(ctx, opts)
		if err != nil {
			return UserAccess{}, fmt.Errorf("list the user's installations: %w", err)
		}
		for _, in := range page {
			ui := UserInstallation{ID: in.GetID(), Account: in.GetAccount().GetLogin()}
			if ui.Repos, err = userRepos(ctx, c, ui.ID); err != nil {
				return UserAccess{}, err
			}
			out.Installations = append(out.Installations, ui)
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		opts.Page = resp.NextPage
	}
}

// userRepos lists the repositories of installation id the token can
// access.
func userRepos(ctx context.Context, c *github.Client, id int64) ([]string, error) {
	var out []string
	opts := &github.ListOptions{PerPage: 100}
	for {
		page, resp, err := c.Apps.ListUserRepos(ctx, id, opts)
		if err != nil {
			return nil, fmt.Errorf("list the user's repositories of installation %d: %w", id, err)
		}
		for _, r := range page.Repositories {
			out = append(out, r.GetFullName())
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		opts.Page = resp.NextPage
	}
}
