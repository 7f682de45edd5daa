package ghfake

import (
	"crypto/rsa"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// App is a registered GitHub App: its ID and the key its JWTs must be
// signed with.
type App struct {
	ID       int64
	Slug     string
	Name     string
	ClientID string
	Key      *rsa.PrivateKey
	Owner    string
	f        *Fake
	created  time.Time
}

// Installation is an App installed on an account, for all of its
// repositories or a selection.
type Installation struct {
	ID          int64
	App         *App
	Account     string
	Permissions Permissions
	repos       map[string]bool // nil: all repositories
	f           *Fake
	created     time.Time
}

// App registers an App with appID whose JWTs must verify against key's
// public half. Its slug is "app-<id>" and its client ID "Iv1.<id>".
func (f *Fake) App(appID int64, key *rsa.PrivateKey) *App {
	f.mu.Lock()
	defer f.mu.Unlock()
	a := &App{
		ID: appID, Slug: "app-" + strconv.FormatInt(appID, 10), Name: "App " + strconv.FormatInt(appID, 10),
		ClientID: "Iv1." + strconv.FormatInt(appID, 10), Key: key, Owner: "ghfake", f: f, created: f.clock(),
	}
	f.apps[appID] = a
	return a
}

// SetKey replaces the key the App's JWTs must be signed with, as deleting
// the App's private key in its settings and generating another does:
// JWTs signed with the old key are refused from then on (401).
func (a *App) SetKey(key *rsa.PrivateKey) {
	a.f.mu.Lock()
	defer a.f.mu.Unlock()
	a.Key = key
}

// JWT signs a valid App JWT at the fake's current time.
func (a *App) JWT() string { return SignAppJWT(a.Key, a.ID, a.f.Now()) }

// Install installs the App on account with perms, for the given
// repositories, or for all of the account's repositories when none are
// given.
func (a *App) Install(account string, perms Permissions, repos ...*Repo) *Installation {
	f := a.f
	defer f.flush()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ensureUser(account)
	in := &Installation{ID: f.nextID(), App: a, Account: account, Permissions: perms, f: f, created: f.clock()}
	if len(repos) > 0 {
		in.repos = map[string]bool{}
		for _, r := range repos {
			in.repos[strings.ToLower(r.FullName())] = true
		}
	}
	f.insts[in.ID] = in
	f.emitInstallation(in, "created")
	return in
}

// Token mints an installation token directly (as if the App had asked for
// one), valid for one hour.
func (i *Installation) Token() string {
	i.f.mu.Lock()
	defer i.f.mu.Unlock()
	return i.f.issue(i, i.Permissions, i.repos).value
}

// issue creates an installation token; callers hold mu.
func (f *Fake) issue(in *Installation, perms Permissions, repos map[string]bool) *token {
	t := &token{
		value: randomToken("ghs_"), kind: installationToken, app: in.App, inst: in,
		perms: perms, repos: repos, expires: f.clock().Add(time.Hour),
	}
	f.tokens[t.value] = t
	return t
}

// ActionsToken returns a workflow GITHUB_TOKEN for repo with perms (e.g.
// Permissions{"checks": "read"} for a read-only fork PR token). Check runs it
// creates belong to the github-actions App (ActionsAppID).
func (f *Fake) ActionsToken(repo *Repo, perms Permissions) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := &token{
		value: randomToken("ghs_"), kind: actionsToken, app: f.actionsApp(), perms: perms,
		repos: map[string]bool{strings.ToLower(repo.FullName()): true},
	}
	f.tokens[t.value] = t
	return t.value
}

// UserToken returns a personal token acting as login, who may read what is
// visible and write where a collaborator permission of write or more was
// granted.
func (f *Fake) UserToken(login string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := &token{value: randomToken("ghp_"), kind: userToken, user: f.ensureUser(login)}
	f.tokens[t.value] = t
	return t.value
}

// actionsApp is the github-actions App, registered on first use.
func (f *Fake) actionsApp() *App {
	if a := f.apps[ActionsAppID]; a != nil {
		return a
	}
	a := &App{ID: ActionsAppID, Slug: "github-actions", Name: "GitHub Actions", Owner: "github", f: f, created: f.clock()}
	f.apps[ActionsAppID] = a
	return a
}

// actor is the user that a token's writes are attributed to.
func (f *Fake) actor(t *token) *user {
	switch {
	case t == nil:
		return f.ensureUser("ghost")
	case t.kind == userToken:
		return t.user
	default:
		return f.ensureUser(t.app.Slug + "[bot]")
	}
}

func (f *Fake) appJSON(a *App) obj {
	return obj{
		"id": a.ID, "slug": a.Slug, "node_id": nodeID("App", a.ID), "client_id": a.ClientID,
		"owner": f.userJSON(f.ensureUser(a.Owner)), "name": a.Name, "description": "",
		"external_url": "https://github.com/apps/" + a.Slug, "html_url": "https://github.com/apps/" + a.Slug,
		"created_at": ts(a.created), "updated_at": ts(a.created),
		"permissions": f.appPermissions(a), "events": []string{},
	}
}

// appPermissions is the widest grant among the App's installations (what
// its registration must at least ask for), metadata read always.
func (f *Fake) appPermissions(a *App) Permissions {
	out := Permissions{"metadata": "read"}
	for _, in := range f.insts {
		if in.App != a {
			continue
		}
		for k, v := range in.Permissions {
			if level(v) > level(out[k]) {
				out[k] = v
			}
		}
	}
	return out
}

func (f *Fake) installationJSON(in *Installation) obj {
	sel := "all"
	if in.repos != nil {
		sel = "selected"
	}
	acct := f.ensureUser(in.Account)
	return obj{
		"id": in.ID, "account": f.userJSON(acct), "repository_selection": sel,
		"access_tokens_url": f.root() + "/app/installations/" + strconv.FormatInt(in.ID, 10) + "/access_tokens",
		"repositories_url":  f.root() + "/installation/repositories",
		"html_url":          "https://github.com/settings/installations/" + strconv.FormatInt(in.ID, 10),
		"app_id":            in.App.ID, "app_slug": in.App.Slug, "target_id": acct.id, "target_type": acct.typ,
		"permissions": in.Permissions, "events": []string{}, "single_file_name": nil,
		"suspended_at": nil, "suspended_by": nil,
		"created_at": ts(in.created), "updated_at": ts(in.created),
	}
}

func (f *Fake) appRoutes() {
	f.handle("GET /app", access{scope: scopeApp}, func(c *call) (int, any) {
		return http.StatusOK, c.f.appJSON(c.app)
	})
	f.handle("GET /app/installations", access{scope: scopeApp}, func(c *call) (int, any) {
		var out []any
		for _, in := range c.f.sortedInstallations() {
			if in.App == c.app {
				out = append(out, c.f.installationJSON(in))
			}
		}
		return http.StatusOK, c.page(out)
	})
	f.handle("GET /app/installations/{installation_id}", access{scope: scopeApp}, func(c *call) (int, any) {
		in := c.installation()
		if in == nil {
			return notFound()
		}
		return http.StatusOK, c.f.installationJSON(in)
	})
	f.handle("POST /app/installations/{installation_id}/access_tokens", access{scope: scopeApp}, createAccessToken)
	f.handle("GET /repos/{owner}/{repo}/installation", access{scope: scopeApp}, func(c *call) (int, any) {
		for _, in := range c.f.sortedInstallations() {
			if in.App == c.app && in.covers(c.repo) {
				return http.StatusOK, c.f.installationJSON(in)
			}
		}
		return notFound()
	})
	f.handle("GET /installation/repositories", read("metadata"), func(c *call) (int, any) {
		var out []any
		for _, r := range c.f.sortedRepos() {
			if c.canSee(r) {
				out = append(out, c.f.repoJSON(r))
			}
		}
		items := c.page(out)
		return http.StatusOK, obj{"total_count": len(out), "repository_selection": "selected", "repositories": items}
	})
}

// installation is the caller's App's installation named in the path.
func (c *call) installation() *Installation {
	id, _ := strconv.ParseInt(c.r.PathValue("installation_id"), 10, 64)
	in := c.f.insts[id]
	if in == nil || in.App != c.app {
		return nil
	}
	return in
}

func (in *Installation) covers(r *repoState) bool {
	if in.repos != nil {
		return in.repos[strings.ToLower(r.fullName)]
	}
	return strings.EqualFold(in.Account, r.owner.login)
}

// createAccessToken serves POST /app/installations/{id}/access_tokens,
// narrowing the token to the requested repositories and permissions.
func createAccessToken(c *call) (int, any) {
	in := c.installation()
	if in == nil {
		return notFound()
	}
	var req struct {
		Repositories  []string    `json:"repositories"`
		RepositoryIDs []int64     `json:"repository_ids"`
		Permissions   Permissions `json:"permissions"`
	}
	if c.r.ContentLength != 0 {
		if err := c.decode(&req); err != nil && err.Error() != "empty body" {
			return badJSON(err)
		}
	}
	perms := in.Permissions
	if len(req.Permissions) > 0 {
		for k, v := range req.Permissions {
			if level(v) == 0 || level(in.Permissions[k]) < level(v) {
				return unprocessable("The permissions requested are not granted to this installation.")
			}
		}
		perms = req.Permissions
	}
	repos, status, body := c.narrow(in, req.Repositories, req.RepositoryIDs)
	if status != 0 {
		return status, body
	}
	t := c.f.issue(in, perms, repos)
	sel := "all"
	if repos != nil {
		sel = "selected"
	}
	return http.StatusCreated, obj{
		"token": t.value, "expires_at": ts(t.expires), "permissions": perms, "repository_selection": sel,
	}
}

// narrow resolves requested repositories (names or IDs) within in.
func (c *call) narrow(in *Installation, names []string, ids []int64) (map[string]bool, int, any) {
	if len(names) == 0 && len(ids) == 0 {
		return in.repos, 0, nil
	}
	out := map[string]bool{}
	for _, r := range c.f.sortedRepos() {
		want := false
		for _, n := range names {
			want = want || strings.EqualFold(n, r.name) || strings.EqualFold(n, r.fullName)
		}
		for _, id := range ids {
			want = want || id == r.id
		}
		if want {
			if !in.covers(r) {
				status, body := unprocessable("There is at least one repository that does not exist or is not accessible to the parent installation.")
				return nil, status, body
			}
			out[strings.ToLower(r.fullName)] = true
		}
	}
	if len(out) != len(names)+len(ids) {
		status, body := unprocessable("There is at least one repository that does not exist or is not accessible to the parent installation.")
		return nil, status, body
	}
	return out, 0, nil
}
