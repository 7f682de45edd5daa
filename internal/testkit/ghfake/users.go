package ghfake

import (
	"sort"
	"strings"
)

// user is an account: a User, a Bot (login ending in "[bot]") or an
// Organization.
type user struct {
	id    int64
	login string
	typ   string
}

// ensureUser returns the account named login, creating it on first use;
// callers hold mu.
func (f *Fake) ensureUser(login string) *user {
	k := strings.ToLower(login)
	if u := f.users[k]; u != nil {
		return u
	}
	typ := "User"
	if strings.HasSuffix(login, "[bot]") {
		typ = "Bot"
	}
	u := &user{id: f.nextID(), login: login, typ: typ}
	f.users[k] = u
	return u
}

// Org declares login an Organization (repositories created under an unknown
// owner make it one too).
func (f *Fake) Org(login string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ensureUser(login).typ = "Organization"
}

// UserID returns the database ID of the account login, creating it (as a
// User, or a Bot for "…[bot]") on first use.
func (f *Fake) UserID(login string) int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.ensureUser(login).id
}

// emailUser is the account a commit e-mail belongs to, as GitHub links
// commits to users: the fake knows only GitHub's noreply addresses
// ("<id>+<login>@users.noreply.github.com" or "<login>@users.noreply…"), so
// any other e-mail, or an unknown login, is nil. Callers hold mu.
func (f *Fake) emailUser(email string) *user {
	local, ok := strings.CutSuffix(strings.ToLower(email), "@users.noreply.github.com")
	if !ok {
		return nil
	}
	id, login, hasID := strings.Cut(local, "+")
	if !hasID {
		login = local
	}
	u := f.users[login]
	if u == nil || (hasID && id != itoa(u.id)) {
		return nil
	}
	return u
}

// userJSON is GitHub's "simple user" object.
func (f *Fake) userJSON(u *user) obj {
	if u == nil {
		return nil
	}
	api := f.root() + "/users/" + u.login
	o := obj{
		"login": u.login, "id": u.id, "node_id": nodeID(u.typ, u.id),
		"avatar_url":  "https://avatars.githubusercontent.com/u/" + itoa(u.id) + "?v=4",
		"gravatar_id": "", "url": api, "html_url": "https://github.com/" + u.login,
		"type": u.typ, "site_admin": false, "user_view_type": "public",
	}
	for _, k := range []string{"followers", "subscriptions", "organizations", "repos", "received_events"} {
		o[k+"_url"] = api + "/" + k
	}
	o["following_url"] = api + "/following{/other_user}"
	o["gists_url"] = api + "/gists{/gist_id}"
	o["starred_url"] = api + "/starred{/owner}{/repo}"
	o["events_url"] = api + "/events{/privacy}"
	return o
}

func (f *Fake) sortedRepos() []*repoState {
	out := make([]*repoState, 0, len(f.repos))
	for _, r := range f.repos {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

func (f *Fake) sortedInstallations() []*Installation {
	out := make([]*Installation, 0, len(f.insts))
	for _, in := range f.insts {
		out = append(out, in)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
