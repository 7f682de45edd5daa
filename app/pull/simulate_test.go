package pull_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestSimulateShowsWhatTheAppPublishes: a simulation of a held pull
// request, read-only through a user's token, returns exactly the check runs
// the App published on its head, writes nothing to GitHub, and judges a
// local config instead of the repository's when given one (here advisory,
// which turns the HOLD's block neutral).
func TestSimulateShowsWhatTheAppPublishes(t *testing.T) {
	g := appkit.NewGatesWorld(t)
	g.Repo.Grant("rita", "read")
	g.PR.Comment("olivia", "/aep hold waiting for legal")
	g.WaitGates(t, "action_required")
	g.Quiet(t)
	published := map[string]checks.Run{}
	for _, name := range []string{checks.NameWorkUnit, checks.NameAudit, checks.NameGates, checks.NameMerge, checks.NameConfig} {
		if r := appkit.NewestRunOn(g.Repo, g.PR.Head(), name); r != nil {
			published[name] = checks.Run{Name: name, Conclusion: checks.Conclusion(r.Conclusion), Title: r.Title, Summary: r.Summary}
		}
	}
	src, err := gh.NewReadInstallation(g.F.URL(), g.F.UserToken("rita"))
	if err != nil {
		t.Fatal(err)
	}
	login, err := g.App.GitHub().AppLogin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	writes := restWrites(g.F.Writes())
	sim := pull.Simulation{Owner: "acme", Repo: "widgets", PR: g.PR.Number(), AppLogin: login}
	runs, err := pull.Simulate(context.Background(), src, sim)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]checks.Run{}
	for _, r := range runs {
		got[r.Name] = checks.Run{Name: r.Name, Conclusion: r.Conclusion, Title: r.Title, Summary: r.Summary}
	}
	if diff := cmp.Diff(published, got); diff != "" {
		t.Errorf("simulated runs differ from the published ones (-published +simulated):\n%s", diff)
	}
	sim.Config = []byte(appkit.GatesConfig + "mode: advisory\n")
	runs, err = pull.Simulate(context.Background(), src, sim)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if r.Name == checks.NameGates && r.Conclusion != checks.ConclusionNeutral {
			t.Errorf("under a local advisory config aepgate/gates is %s", r.Conclusion)
		}
	}
	if n := restWrites(g.F.Writes()); n != writes {
		t.Errorf("the simulations wrote %d times to GitHub:\n%s", n-writes, g.F.WriteLog())
	}
}

// restWrites counts the writes among reqs that are not GraphQL (the fake
// logs every POST, queries included; a GraphQL mutation would be refused by
// gh.NewReadInstallation before it is sent).
func restWrites(reqs []ghfake.Request) int {
	n := 0
	for _, r := range reqs {
		if r.Pattern != "POST /graphql" {
			n++
		}
	}
	return n
}
