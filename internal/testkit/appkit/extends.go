package appkit

import (
	"testing"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// OrgBase is the organization's policy: olivia owns every repository.
const OrgBase = "version: 1\nowners: [olivia]\nauditors: [ann]\n"

// Extending is a repository config that extends the organization's policy.
const Extending = "version: 1\nextends: acme/.github:aepgate.yml\n"

// NewExtendsWorld is a gates world (olivia, cody, mallory, one unit and its
// pull request) whose installation also covers acme/.github, holding base
// as aepgate.yml on its default branch, and whose repository config is cfg.
func NewExtendsWorld(t *testing.T, base, cfg string, edit func(*app.Options)) *GatesWorld {
	t.Helper()
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	ghApp := f.App(AppID, Key(t))
	repo := f.CreateRepo("acme/widgets")
	org := f.CreateRepo("acme/.github")
	org.Commit("main", "organization policy", map[string]string{"aepgate.yml": base})
	f.CreateRepo("acme/secret").Commit("main", "a policy the App may not read", map[string]string{"aepgate.yml": OrgBase})
	inst := ghApp.Install("acme", ghfake.Permissions{"checks": "write", "contents": "read", "issues": "write", "pull_requests": "write", "metadata": "read", "actions": "read", "members": "read"}, repo, org)
	o := Options(t, nil, "")
	o.GitHubURL = f.URL()
	if edit != nil {
		edit(&o)
	}
	a, url := Start(t, o)
	f.SendWebhooks(url+"/webhook", Secret, ghApp)
	w := &Live{F: f, Repo: repo, App: a, Base: url, Inst: inst, GHApp: ghApp}
	repo.Commit("main", "config", map[string]string{".github/aepgate.yml": cfg})
	for login, role := range map[string]string{"olivia": "admin", "cody": "write", "mallory": "write", "rob": "write"} {
		repo.Grant(login, role)
	}
	g := &GatesWorld{Live: w, GH: f.Client(inst.Token())}
	g.Unit, g.PR = g.UnitAndPR("extends")
	return g
}
