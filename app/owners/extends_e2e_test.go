package owners_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// withoutRule is the default merge rules minus key's: a negative control.
func withoutRule(key string) func(*app.Options) {
	return func(o *app.Options) {
		o.Seams.MergeRules = slices.DeleteFunc(config.DefaultMergeRules(), func(r config.MergeRule) bool { return r.Key == key })
	}
}

// TestExtendsBaseOwnerHolds: an owner the organization's base names can
// HOLD a repository whose own file lists only other owners (owners are
// unioned). With the owners rule removed (the negative control), the
// repository's list replaces the base's and olivia's HOLD is refused.
func TestExtendsBaseOwnerHolds(t *testing.T) {
	for _, tt := range []struct {
		name string
		edit func(*app.Options)
		want string
	}{
		{"owners unioned", nil, "action_required"},
		{"negative control: without the owners rule", withoutRule("owners"), "success"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := appkit.NewExtendsWorld(t, appkit.OrgBase, appkit.Extending+"owners: [rob]\ncoordinators: [cody]\n", tt.edit)
			g.WaitGates(t, "success")
			if got, sum := g.ConfigConclusion(t); got != "valid" {
				t.Fatalf("aepgate/config is %s, want none (valid):\n%s", got, sum)
			}
			hold := g.Unit.Comment("olivia", "/aep hold waiting for legal")
			g.WaitReaction(t, hold.ID())
			g.Quiet(t)
			if got := g.Gates().Conclusion; got != tt.want {
				t.Errorf("after the base owner's HOLD aepgate/gates is %s, want %s", got, tt.want)
			}
		})
	}
}

// TestExtendsDropRefused: a repository that sets owners: [] to drop the
// owner it inherits is refused: aepgate/config fails naming the inherited
// owner, and the base owner's HOLD still blocks. With the owners rule
// removed (the negative control) the file is accepted and the HOLD of the
// dropped owner no longer counts.
func TestExtendsDropRefused(t *testing.T) {
	for _, tt := range []struct {
		name       string
		edit       func(*app.Options)
		wantConfig string
		wantGates  string
	}{
		{"refused", nil, "failure", "action_required"},
		{"negative control: without the owners rule", withoutRule("owners"), "valid", "success"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := appkit.NewExtendsWorld(t, appkit.OrgBase, appkit.Extending+"owners: []\ncoordinators: [cody]\n", tt.edit)
			got, sum := g.ConfigConclusion(t)
			if got != tt.wantConfig {
				t.Fatalf("aepgate/config is %s, want %s:\n%s", got, tt.wantConfig, sum)
			}
			if got == "failure" && !strings.Contains(sum, "owners: [] would drop the inherited [olivia] of acme/.github:aepgate.yml") {
				t.Errorf("aepgate/config does not name the inherited owner:\n%s", sum)
			}
			if tt.wantConfig == "failure" {
				return // an invalid policy judges nothing: every check fails closed
			}
			hold := g.Unit.Comment("olivia", "/aep hold waiting for legal")
			g.WaitReaction(t, hold.ID())
			g.Quiet(t)
			if got := g.Gates().Conclusion; got != tt.wantGates {
				t.Errorf("after the dropped owner's HOLD aepgate/gates is %s, want %s", got, tt.wantGates)
			}
		})
	}
}

// fallback is the negative control of an unreadable base: a app.Snapshotter
// that replaces a base it could not read by an empty policy, so the
// repository's file stands alone.
type fallback struct{ app.Snapshotter }

func (f fallback) Snapshot(ctx context.Context, req gh.SnapshotRequest) (*snapshot.PR, error) {
	s, err := f.Snapshotter.Snapshot(ctx, req)
	if err == nil && s.Config.Base != nil && s.Config.Base.Unreadable != "" {
		s.Config.Base = &snapshot.BaseFile{Ref: s.Config.Base.Ref, Text: "version: 1\n"}
	}
	return s, err
}

// TestExtendsBaseUnreadable: a repository extending a base the App cannot
// read (acme/secret is outside its installation: 404) is refused with the
// reason; aepgate/config and aepgate/work-unit fail. Falling back to the
// repository's own file (the negative control) passes both.
func TestExtendsBaseUnreadable(t *testing.T) {
	for _, tt := range []struct {
		name           string
		edit           func(*app.Options)
		want, wantUnit string
	}{
		{"refused", nil, "failure", "failure"},
		{"negative control: falling back to the repository's file", func(o *app.Options) {
			o.Seams.Snapshots = func(s app.Snapshotter) app.Snapshotter { return fallback{s} }
		}, "valid", "success"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := appkit.NewExtendsWorld(t, appkit.OrgBase, "version: 1\nextends: acme/secret:aepgate.yml\ncoordinators: [cody]\nauditors: [ann]\n", tt.edit)
			got, sum := g.ConfigConclusion(t)
			if got != tt.want {
				t.Fatalf("aepgate/config is %s, want %s:\n%s", got, tt.want, sum)
			}
			if got := appkit.ConclusionOf(g.Repo, g.PR.Head(), checks.NameWorkUnit); got != tt.wantUnit {
				t.Errorf("aepgate/work-unit is %s, want %s", got, tt.wantUnit)
			}
			if got == "failure" && !strings.Contains(sum, "base policy acme/secret:aepgate.yml cannot be read") {
				t.Errorf("aepgate/config does not say why:\n%s", sum)
			}
		})
	}
}

// unconditional drops If-None-Match from every request: the negative
// control of reading the base by ETag.
type unconditional struct{}

func (unconditional) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	r.Header.Del("If-None-Match")
	return http.DefaultTransport.RoundTrip(r)
}

// TestExtendsBaseReadOncePerEvaluation: every evaluation reads the base
// once, and once it has been read, a further evaluation's read is a
// conditional GET answered 304 (free of the rate limit). With the
// conditional header dropped (the negative control) it is a full 200.
func TestExtendsBaseReadOncePerEvaluation(t *testing.T) {
	for _, tt := range []struct {
		name string
		edit func(*app.Options)
		want int
	}{
		{"conditional", nil, http.StatusNotModified},
		{"negative control: unconditional reads", func(o *app.Options) { o.Transport = unconditional{} }, http.StatusOK},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := appkit.NewExtendsWorld(t, appkit.OrgBase, appkit.Extending+"coordinators: [cody]\n", tt.edit)
			g.WaitGates(t, "success")
			g.Quiet(t)
			before, evals := len(g.BaseReads()), g.LedgerRows(t, "check_run:"+checks.NameGates)
			if before == 0 || g.BaseReads()[0] != http.StatusOK {
				t.Fatalf("the first read of the base answered %v, want 200 first", g.BaseReads())
			}
			g.Repo.Commit("extends", "more work", map[string]string{"more.go": "package x\n"})
			appkit.WaitFor(t, 10*time.Second, "an evaluation of the new head", func() bool { return g.Gates() != nil })
			g.Quiet(t)
			reads := g.BaseReads()[before:]
			n := g.LedgerRows(t, "check_run:"+checks.NameGates) - evals
			if len(reads) != n || n == 0 {
				t.Fatalf("%d evaluations read the base %d times (%v), want once each", n, len(reads), reads)
			}
			for _, s := range reads {
				if s != tt.want {
					t.Errorf("a later read of the base answered %d, want %d (all: %v)", s, tt.want, reads)
				}
			}
		})
	}
}

// TestSimulateExtends: aepgate simulate resolves the policy as the App
// does: under the repository's own config and under a local --config that
// extends the organization's base, the base owner's HOLD blocks, as the App
// published; under a local file that does not extend it (the negative
// control) the HOLD does not count.
func TestSimulateExtends(t *testing.T) {
	g := appkit.NewExtendsWorld(t, appkit.OrgBase, appkit.Extending+"owners: [rob]\ncoordinators: [cody]\n", nil)
	g.Repo.Grant("rita", "read")
	g.Unit.Comment("olivia", "/aep hold waiting for legal")
	g.WaitGates(t, "action_required")
	g.Quiet(t)
	src, err := gh.NewReadInstallation(g.F.URL(), g.F.UserToken("rita"))
	if err != nil {
		t.Fatal(err)
	}
	login, err := g.App.GitHub().AppLogin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		config string
		want   checks.Conclusion
	}{
		{"the repository's config", "", checks.ConclusionActionRequired},
		{"a local config extending the base", appkit.Extending + "coordinators: [cody]\n", checks.ConclusionActionRequired},
		{"negative control: a local config without extends", "version: 1\nowners: [rob]\ncoordinators: [cody]\nauditors: [ann]\n", checks.ConclusionSuccess},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sim := pull.Simulation{Owner: "acme", Repo: "widgets", PR: g.PR.Number(), AppLogin: login}
			if tt.config != "" {
				sim.Config = []byte(tt.config)
			}
			runs, err := pull.Simulate(context.Background(), src, sim)
			if err != nil {
				t.Fatal(err)
			}
			var got checks.Conclusion
			for _, r := range runs {
				if r.Name == checks.NameGates {
					got = r.Conclusion
				}
			}
			if got != tt.want {
				t.Errorf("simulated aepgate/gates is %q, want %q", got, tt.want)
			}
		})
	}
}
