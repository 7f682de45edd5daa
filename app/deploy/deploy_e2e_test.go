package deploy_test

import (
	"testing"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/deployrules"
)

// newDeployWorld starts an App on a repository whose config is yaml;
// rules replace protocol/deployrules's when set (a negative control).
func newDeployWorld(t *testing.T, yaml string, rules []deployrules.Rule) *appkit.DeployWorld {
	t.Helper()
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	w := &appkit.DeployWorld{F: f, GHApp: f.App(appkit.AppID, appkit.Key(t)), Repo: f.CreateRepo("acme/widgets")}
	w.GHApp.Install("acme", ghfake.Permissions{"checks": "write", "contents": "read", "issues": "write", "pull_requests": "write",
		"metadata": "read", "actions": "read", "deployments": "write"}, w.Repo)
	w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": yaml})
	w.Repo.Grant("olivia", "admin")
	w.Repo.Grant("mallory", "write")
	w.Opts = appkit.Options(t, nil, "")
	w.Opts.GitHubURL = f.URL()
	w.Opts.Seams.Readback = app.ReadbackSeams{Audited: appkit.PassAudit}
	w.Opts.Seams.DeployRules = rules
	w.Start(t)
	t.Cleanup(func() { w.Stop() })
	return w
}

// deployCost is what the deployment's judgement cost, without the App's
// credentials (an installation token lasts an hour and the App's login is
// read once per process: neither is the request's).
func deployCost(st ghfake.Stats) (reads, writes int) {
	delete(st.ByRoute, "GET /app")
	delete(st.ByRoute, "POST /app/installations/{installation_id}/access_tokens")
	return appkit.APICalls(st)
}

func withoutDeployRule(name string) []deployrules.Rule {
	var out []deployrules.Rule
	for _, r := range deployrules.DefaultRules() {
		if r.Name != name {
			out = append(out, r)
		}
	}
	return out
}
