package ghfake

import (
	"net/http"
	"strconv"
	"strings"
)

// userAppToken is the caller's GitHub App user access token (from the
// OAuth web flow), or a 403 for any other credential.
func (c *call) userAppToken() (int, any) {
	if c.tok.kind != userToken || c.tok.app == nil {
		return apiError(http.StatusForbidden, "You must authenticate with an access token authorized to a GitHub App in order to list installations")
	}
	return 0, nil
}

// userCanRead reports whether u has explicit access to r: a collaborator
// role, or owning it.
func userCanRead(u *user, r *repoState) bool {
	return r.perms[strings.ToLower(u.login)] != "" || r.owner == u
}

// userRepos are the repositories in covers the user u can read, by ID.
func (f *Fake) userRepos(in *Installation, u *user) []*repoState {
	var out []*repoState
	for _, r := range f.sortedRepos() {
		if in.covers(r) && userCanRead(u, r) {
			out = append(out, r)
		}
	}
	return out
}

// userInstallations serves GET /user/installations: the token's App's
// installations on which the user can read at least one repository.
//
// https://docs.github.com/rest/apps/installations#list-app-installations-accessible-to-the-user-access-token
func userInstallations(c *call) (int, any) {
	if status, body := c.userAppToken(); status != 0 {
		return status, body
	}
	var out []any
	for _, in := range c.f.sortedInstallations() {
		if in.App == c.tok.app && len(c.f.userRepos(in, c.tok.user)) > 0 {
			out = append(out, c.f.installationJSON(in))
		}
	}
	items := c.page(out)
	return http.StatusOK, obj{"total_count": len(out), "installations": items}
}

// userInstallationRepos serves GET
// /user/installations/{installation_id}/repositories: the installation's
// repositories the user can read, each with the user's permissions.
//
// https://docs.github.com/rest/apps/installations#list-repositories-accessible-to-the-user-access-token
func userInstallationRepos(c *call) (int, any) {
	if status, body := c.userAppToken(); status != 0 {
		return status, body
	}
	id, _ := strconv.ParseInt(c.r.PathValue("installation_id"), 10, 64)
	in := c.f.insts[id]
	if in == nil || in.App != c.tok.app {
		return notFound()
	}
	repos := c.f.userRepos(in, c.tok.user)
	if len(repos) == 0 {
		return notFound()
	}
	out := make([]any, 0, len(repos))
	for _, r := range repos {
		o := c.f.repoJSON(r)
		o["permissions"] = userPermissions(c.tok.user, r)
		out = append(out, o)
	}
	sel := "all"
	if in.repos != nil {
		sel = "selected"
	}
	items := c.page(out)
	return http.StatusOK, obj{"total_count": len(out), "repository_selection": sel, "repositories": items}
}

// userPermissions is the "permissions" object of a repository for u.
func userPermissions(u *user, r *repoState) obj {
	role := r.perms[strings.ToLower(u.login)]
	if r.owner == u {
		role = "admin"
	}
	l := level(userLevel(role))
	return obj{
		"admin": l >= 3, "maintain": role == "maintain" || l >= 3, "push": l >= 2,
		"triage": role == "triage" || l >= 2, "pull": l >= 1,
	}
}
