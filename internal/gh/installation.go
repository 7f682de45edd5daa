package gh

import (
	"context"
	"fmt"

	"github.com/google/go-github/v62/github"
)

// CheckPublisher returns the installation's check-run publisher. The
// installation's transport already paces every write (across all of the
// installation's evaluations), so the publisher adds no pause of its own.
func (in *Installation) CheckPublisher() *CheckPublisher {
	p := NewCheckPublisher(in.rest, in.appID)
	p.WritePause = 0
	return p
}

// Repository names one repository an installation can see.
type Repository struct {
	Owner, Name string
}

// FullName is owner/name.
func (r Repository) FullName() string { return r.Owner + "/" + r.Name }

// Repositories lists the repositories the installation can see, 100 a page.
//
// https://docs.github.com/rest/apps/installations#list-repositories-accessible-to-the-app-installation
func (in *Installation) Repositories(ctx context.Context) ([]Repository, error) {
	var out []Repository
	opts := &github.ListOptions{PerPage: 100}
	for {
		page, resp, err := in.rest.Apps.ListRepos(ctx, opts)
		if err != nil {
			return nil, fmt.Errorf("list repositories of installation %d: %w", in.ID, err)
		}
		for _, r := range page.Repositories {
			out = append(out, Repository{Owner: r.GetOwner().GetLogin(), Name: r.GetName()})
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		opts.Page = resp.NextPage
	}
}

// Installations lists the IDs of the App's installations, 100 a page,
// authenticating as the App (JWT).
//
// https://docs.github.com/rest/apps/apps#list-installations-for-the-authenticated-app
func (c *Clients) Installations(ctx context.Context) ([]int64, error) {
	client, err := c.auth.AppClient()
	if err != nil {
		return nil, err
	}
	var out []int64
	opts := &github.ListOptions{PerPage: 100}
	for {
		page, resp, err := client.Apps.ListInstallations(ctx, opts)
		if err != nil {
			return nil, fmt.Errorf("list installations: %w", err)
		}
		for _, in := range page {
			out = append(out, in.GetID())
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		opts.Page = resp.NextPage
	}
}

// AppLogin is the login the App acts as in comments and reviews: its slug
// followed by "[bot]", as REST and webhooks spell it. It is read once (as
// the App, GET /app) and then remembered.
//
// https://docs.github.com/rest/apps/apps#get-the-authenticated-app
func (c *Clients) AppLogin(ctx context.Context) (string, error) {
	c.mu.Lock()
	login := c.appLogin
	c.mu.Unlock()
	if login != "" {
		return login, nil
	}
	client, err := c.auth.AppClient()
	if err != nil {
		return "", err
	}
	app, _, err := client.Apps.Get(ctx, "")
	if err != nil {
		return "", fmt.Errorf("read the App: %w", err)
	}
	if app.GetSlug() == "" {
		return "", fmt.Errorf("read the App: GitHub gave no slug")
	}
	login = app.GetSlug() + "[bot]"
	c.mu.Lock()
	c.appLogin = login
	c.mu.Unlock()
	return login, nil
}
