package owners_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/owners"
	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/deployrules"
)

// literalPeople is the old resolution, injected as a negative control:
// the config's owners as written, no team or CODEOWNERS read.
func literalPeople(_ context.Context, _ owners.Source, _, _, _ string, cfg *config.Config) (*config.Config, error) {
	return cfg, nil
}

// peopleSource names dana, the owner, one way. Every judge counts the same
// person whatever the source; an unreadable source fails closed in each.
type peopleSource struct {
	name string
	// yaml is the repository config before its deploy section; base, when
	// set, is acme/.github's aepgate.yml, which yaml extends.
	yaml, base string
	// files are committed on main with the config.
	files map[string]string
	// team makes dana the only member of @acme/leads; members grants the
	// installation members: read.
	team, members bool
	// unreadable is what every refusal names when the source cannot be
	// read ("" when it can).
	unreadable string
	// literal says the old literal-owners resolution still counts dana.
	literal bool
}

const deploySection = "deploy:\n  environments:\n    production:\n      require: none\n      owner_gate: true\n"

var peopleSources = []peopleSource{
	{name: "flat list", yaml: "version: 1\nowners: [dana]\n", members: true, literal: true},
	{name: "team", yaml: "version: 1\nowners: [\"@acme/leads\"]\n", team: true, members: true},
	{name: "CODEOWNERS", yaml: "version: 1\nowners: {from: CODEOWNERS}\n", files: map[string]string{".github/CODEOWNERS": "* @dana\n"}, members: true},
	{name: "extends", yaml: "version: 1\nextends: acme/.github:aepgate.yml\n", base: "version: 1\nowners: [dana]\n" + deploySection, members: true, literal: true},
	{name: "team without members: read", yaml: "version: 1\nowners: [\"@acme/leads\"]\n", team: true, unreadable: "`members: read`"},
	{name: "CODEOWNERS missing", yaml: "version: 1\nowners: {from: CODEOWNERS}\n", members: true, unreadable: "CODEOWNERS"},
}

// config is the repository's config file.
func (s peopleSource) config() string {
	if s.base != "" || strings.Contains(s.yaml, "deploy:") {
		return s.yaml
	}
	return s.yaml + deploySection
}

// newPeopleWorld is a world where dana owns acme/widgets through source s
// (and may write), mallory may write, and the App is started with edit.
func newPeopleWorld(t *testing.T, s peopleSource, edit func(*app.Options)) *appkit.Live {
	t.Helper()
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	ghApp := f.App(appkit.AppID, appkit.Key(t))
	repo := f.CreateRepo("acme/widgets")
	org := f.CreateRepo("acme/.github")
	if s.base != "" {
		org.Commit("main", "organization policy", map[string]string{"aepgate.yml": s.base})
	}
	perms := ghfake.Permissions{"checks": "write", "contents": "read", "issues": "write", "pull_requests": "write",
		"metadata": "read", "actions": "read", "deployments": "write"}
	if s.members {
		perms["members"] = "read"
	}
	inst := ghApp.Install("acme", perms, repo, org)
	if s.team {
		f.SetTeam("acme", "leads", "dana")
	}
	files := map[string]string{".github/aepgate.yml": s.config()}
	for p, text := range s.files {
		files[p] = text
	}
	repo.Commit("main", "config", files)
	repo.Grant("dana", "write")
	repo.Grant("mallory", "write")
	o := appkit.Options(t, nil, "")
	o.GitHubURL = f.URL()
	o.Seams.Readback = app.ReadbackSeams{Audited: appkit.PassAudit}
	if edit != nil {
		edit(&o)
	}
	a, url := appkit.Start(t, o)
	f.SendWebhooks(url+"/webhook", appkit.Secret, ghApp)
	return &appkit.Live{F: f, Repo: repo, App: a, Base: url, Inst: inst, GHApp: ghApp}
}

// deployOf is w as a deployment world, for its helpers.
func deployOf(w *appkit.Live) *appkit.DeployWorld {
	return &appkit.DeployWorld{F: w.F, Repo: w.Repo, GHApp: w.GHApp, App: w.App, Base: w.Base}
}

// TestPeopleDeployGate: behind the owner gate, dana's `resolve … approve`
// answers the deployment whatever source names her; where the source
// cannot be read the deployment is rejected, never approved, saying what
// is missing. The deploy judge answers its gate's comments: 👍 for
// dana's, 👎 for mallory's (no "no gate exists" from the comment
// answerer). Negative control: the old literal-owners resolution leaves
// the deployment waiting after a team or CODEOWNERS owner's answer.
func TestPeopleDeployGate(t *testing.T) {
	t.Parallel()
	for _, s := range peopleSources {
		for _, literal := range []bool{false, true} {
			if literal && s.unreadable != "" {
				continue // TestPeopleUnreadableTeamFailsClosed shows the old answer
			}
			name := s.name
			if literal {
				name += " (negative control: literal owners)"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				w := newPeopleWorld(t, s, func(o *app.Options) {
					if literal {
						o.Seams.People = literalPeople
					}
				})
				d := deployOf(w)
				ctl := d.ControlIssue()
				run := d.Deploy(w.Repo.Head("main"))
				if s.unreadable != "" {
					got := appkit.Answered(t, run)
					if got.State != deployrules.Rejected || !strings.Contains(got.Comment, s.unreadable) {
						t.Fatalf("answer %+v, want rejected naming %s", got, s.unreadable)
					}
					w.Quiet(t)
					return
				}
				appkit.WaitFor(t, 10*time.Second, "the gate's question", func() bool { return appkit.AppComments(ctl, run) == 1 })
				id := deployrules.GateID("production", run.ID())
				stranger := ctl.Comment("mallory", "/aep resolve "+id+" approve")
				d.Settle(t)
				approve := ctl.Comment("dana", "/aep resolve "+id+" approve")
				if literal && !s.literal {
					d.Settle(t)
					if got := run.DeploymentReviews(); len(got) != 0 {
						t.Fatalf("negative control: the literal owners answered the deployment: %+v", got)
					}
					return
				}
				if got := appkit.Answered(t, run); got.State != deployrules.Approved {
					t.Fatalf("answer %+v, want approved", got)
				}
				d.Settle(t)
				// The deploy judge answers its gate's comments: one 👍 for
				// the answer that counted, 👎 for the one that did not.
				for _, c := range []struct {
					c    *ghfake.Comment
					want string
				}{{stranger, "-1"}, {approve, "+1"}} {
					got, _ := w.Repo.CommentByID(c.c.ID())
					if diff := cmp.Diff([]string{c.want}, got.Reactions); diff != "" {
						t.Errorf("reactions to %s's answer (-want +got):\n%s", got.Author, diff)
					}
				}
			})
		}
	}
}

// TestPeopleCloseCommand: after mallory closes a unit without evidence,
// dana's `/aep close <reason>` counts (👍) whatever source names her; an
// unreadable source gets 👎 and a reply naming what is missing. Her own
// closure of another unit counts as the owner's, and with an unreadable
// source the App's comment says why it does not. Negative control: the
// old literal-owners resolution refuses a team or CODEOWNERS owner.
func TestPeopleCloseCommand(t *testing.T) {
	t.Parallel()
	for _, s := range peopleSources {
		for _, literal := range []bool{false, true} {
			if literal && (s.literal || s.unreadable != "") {
				continue
			}
			name := s.name
			if literal {
				name += " (negative control: literal owners)"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				w := newPeopleWorld(t, s, func(o *app.Options) {
					if literal {
						o.Seams.People = literalPeople
					}
				})
				ms := w.Repo.CreateMilestone("M", "")
				unit := w.Repo.OpenIssue("dana", "Unit", appkit.Contract("low", "product"), ghfake.InMilestone(ms))
				own := w.Repo.OpenIssue("dana", "Own", appkit.Contract("low", "product"), ghfake.InMilestone(ms))
				unit.Close("mallory")
				own.Close("dana")
				w.Quiet(t)
				cmd := unit.Comment("dana", "/aep close shipped by hand")
				appkit.WaitFor(t, 10*time.Second, "a reaction", func() bool { c, _ := w.Repo.CommentByID(cmd.ID()); return len(c.Reactions) > 0 })
				w.Quiet(t)
				c, _ := w.Repo.CommentByID(cmd.ID())
				counts := s.unreadable == "" && !literal
				want := []string{"-1"}
				if counts {
					want = []string{"+1"}
				}
				if diff := cmp.Diff(want, c.Reactions); diff != "" {
					t.Errorf("`/aep close` by dana: reactions (-want +got):\n%s", diff)
				}
				if s.unreadable != "" && !hasComment(unit, s.unreadable) {
					t.Errorf("no reply naming %s: %v", s.unreadable, unit.Comments())
				}
				if flagged := appkit.ClosureComments(own) > 0; flagged == counts {
					t.Errorf("dana's own closure flagged %v, want %v", flagged, !counts)
				}
				if s.unreadable != "" && !hasComment(own, s.unreadable) {
					t.Errorf("the closure comment does not name %s: %v", s.unreadable, own.Comments())
				}
			})
		}
	}
}

// hasComment reports whether a comment on is holds text.
func hasComment(is *ghfake.Issue, text string) bool {
	for _, c := range is.Comments() {
		if strings.Contains(c.Body, text) {
			return true
		}
	}
	return false
}

// TestPeopleUnreadableTeamFailsClosed: the owners are a team and the
// installation has not granted members: read. The team member's HOLD is
// answered with why it cannot be judged (👀 and a reply naming the
// permission, no 👍), the pull request's checks name the permission, a
// deployment requested meanwhile is rejected naming it, and the queue
// drains: nothing retries. Negative control: the old literal-owners
// resolution ignores the HOLD and approves the deployment.
func TestPeopleUnreadableTeamFailsClosed(t *testing.T) {
	t.Parallel()
	const why = "the installation has not granted `members: read`"
	ungated := peopleSource{yaml: "version: 1\nowners: [\"@acme/leads\"]\ndeploy:\n  environments:\n    production:\n      require: none\n", team: true}
	for _, tt := range []struct {
		name    string
		resolve owners.Resolver
		want    string
	}{
		{"one resolver", nil, deployrules.Rejected},
		{"negative control: literal owners", literalPeople, deployrules.Approved},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := newPeopleWorld(t, ungated, func(o *app.Options) { o.Seams.People = tt.resolve })
			d := deployOf(w)
			ctl := d.ControlIssue()
			unit := w.Repo.OpenIssue("dana", "Unit", appkit.Contract("low", "product"), ghfake.InMilestone(w.Repo.CreateMilestone("M", "")))
			w.Repo.Branch("work", "main")
			w.Repo.Commit("work", "work", map[string]string{"work.go": "package x\n"})
			pr := w.Repo.OpenPR("bob", "work", "main", "Work", "Work-unit: #"+strconv.Itoa(unit.Number()))
			hold := ctl.Comment("dana", "/aep hold payments are down")
			w.Quiet(t)
			run := d.Deploy(w.Repo.Head("main"))
			got := appkit.Answered(t, run)
			w.Quiet(t) // the queue drains: no job retries the refusal
			if got.State != tt.want {
				t.Fatalf("deployment %+v, want %s", got, tt.want)
			}
			if tt.resolve != nil {
				return
			}
			if !strings.Contains(got.Comment, why) {
				t.Errorf("the rejection does not name the permission: %q", got.Comment)
			}
			c, _ := w.Repo.CommentByID(hold.ID())
			if slices.Contains(c.Reactions, "+1") || !slices.Contains(c.Reactions, "eyes") || !hasComment(ctl, why) {
				t.Errorf("the HOLD got %v and replies %v; want 👀 and a reply naming the permission", c.Reactions, ctl.Comments())
			}
			appkit.WaitFor(t, 10*time.Second, "aepgate/gates on the head", func() bool { return appkit.NewestRunOn(w.Repo, pr.Head(), checks.NameGates) != nil })
			for _, name := range []string{checks.NameConfig, checks.NameGates} {
				r := appkit.NewestRunOn(w.Repo, pr.Head(), name)
				if r == nil || r.Conclusion == "success" || !strings.Contains(r.Title+r.Summary, "members: read") {
					t.Errorf("%s does not fail naming the permission: %+v", name, r)
				}
			}
		})
	}
}

// TestPeopleHoldOnPullRequest: dana's HOLD on the unit is answered by the
// comment answerer and blocks the attempt's aepgate/gates whatever source
// names her (👍, action_required); an unreadable source gets 👀, a reply
// and a failing aepgate/gates naming what is missing, never 👍 nor a pass.
// Negative control: the old literal-owners resolution refuses a team or
// CODEOWNERS owner's HOLD (👎) and the gates pass. pull.Simulate, through the
// same resolver, judges the gates as the App published them.
func TestPeopleHoldOnPullRequest(t *testing.T) {
	t.Parallel()
	for _, s := range peopleSources {
		for _, literal := range []bool{false, true} {
			if literal && (s.literal || s.unreadable != "") {
				continue
			}
			name := s.name
			if literal {
				name += " (negative control: literal owners)"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				w := newPeopleWorld(t, s, func(o *app.Options) {
					if literal {
						o.Seams.People = literalPeople
					}
				})
				unit := w.Repo.OpenIssue("alice", "Unit", appkit.Contract("low", "product"), ghfake.InMilestone(w.Repo.CreateMilestone("M", "")))
				w.Repo.Branch("work", "main")
				w.Repo.Commit("work", "work", map[string]string{"work.go": "package x\n"})
				pr := w.Repo.OpenPR("bob", "work", "main", "Work", "Work-unit: #"+strconv.Itoa(unit.Number()))
				appkit.WaitFor(t, 10*time.Second, "aepgate/gates", func() bool { return appkit.NewestRunOn(w.Repo, pr.Head(), checks.NameGates) != nil })
				hold := unit.Comment("dana", "/aep hold waiting for legal")
				appkit.WaitFor(t, 10*time.Second, "a reaction", func() bool { c, _ := w.Repo.CommentByID(hold.ID()); return len(c.Reactions) > 0 })
				w.Quiet(t)
				c, _ := w.Repo.CommentByID(hold.ID())
				gates := appkit.NewestRunOn(w.Repo, pr.Head(), checks.NameGates)
				want, wantGates := "+1", "action_required"
				switch {
				case s.unreadable != "":
					want, wantGates = "eyes", "failure"
					if !hasComment(unit, s.unreadable) || !strings.Contains(gates.Summary, s.unreadable) {
						t.Errorf("neither the reply nor aepgate/gates names %s: %v\n%s", s.unreadable, unit.Comments(), gates.Summary)
					}
				case literal:
					want, wantGates = "-1", "success"
				}
				if diff := cmp.Diff([]string{want}, c.Reactions); diff != "" {
					t.Errorf("the HOLD's reactions (-want +got):\n%s", diff)
				}
				if gates.Conclusion != wantGates {
					t.Errorf("aepgate/gates %s, want %s:\n%s", gates.Conclusion, wantGates, gates.Summary)
				}
				if !literal {
					simulateGates(t, w, pr.Number(), wantGates)
				}
			})
		}
	}
}

// simulateGates checks that simulate, reading through the App's
// installation, judges aepgate/gates on pull request pr as want.
func simulateGates(t *testing.T, w *appkit.Live, pr int, want string) {
	t.Helper()
	src, err := w.App.GitHub().Installation(w.Inst.ID)
	if err != nil {
		t.Fatal(err)
	}
	login, err := w.App.GitHub().AppLogin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	runs, err := pull.Simulate(context.Background(), src, pull.Simulation{Owner: "acme", Repo: "widgets", PR: pr, AppLogin: login})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if r.Name == checks.NameGates && string(r.Conclusion) != want {
			t.Errorf("simulate: aepgate/gates %s, want %s:\n%s", r.Conclusion, want, r.Summary)
		}
	}
}

// TestPeopleAccept: olivia's `/aep accept` of a high-risk increment's
// candidate counts (👍, the increment complete) whether she owns the
// repository by name, through a team or through CODEOWNERS; with the
// team unreadable (no members: read) it is refused with a reply naming the
// permission. Negative control: the old literal-owners resolution refuses
// the team's and CODEOWNERS' owner, and the increment never completes.
func TestPeopleAccept(t *testing.T) {
	t.Parallel()
	team := strings.Replace(appkit.IncrementYAML, "owners: [olivia]", "owners: [\"@acme/leads\"]", 1)
	codeowners := strings.Replace(appkit.IncrementYAML, "owners: [olivia]", "owners: {from: CODEOWNERS}", 1)
	members := ghfake.Permissions{"members": "read"}
	for _, tt := range []struct {
		name       string
		files      map[string]string
		perms      ghfake.Permissions
		resolve    owners.Resolver
		counts     bool
		unreadable string
	}{
		{"flat list", map[string]string{".github/aepgate.yml": appkit.IncrementYAML}, members, nil, true, ""},
		{"team", map[string]string{".github/aepgate.yml": team}, members, nil, true, ""},
		{"CODEOWNERS", map[string]string{".github/aepgate.yml": codeowners, ".github/CODEOWNERS": "* @olivia\n"}, members, nil, true, ""},
		{"team without members: read", map[string]string{".github/aepgate.yml": team}, nil, nil, false, "`members: read`"},
		{"team (negative control: literal owners)", map[string]string{".github/aepgate.yml": team}, members, literalPeople, false, ""},
		{"CODEOWNERS (negative control: literal owners)", map[string]string{".github/aepgate.yml": codeowners, ".github/CODEOWNERS": "* @olivia\n"}, members, literalPeople, false, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := appkit.NewIncrementWorldFiles(t, tt.files, tt.perms, appkit.HighRisk, nil, func(o *app.Options) { o.Seams.People = tt.resolve })
			w.F.SetTeam("acme", "leads", "olivia")
			sha := w.Repo.Head("main")
			if tt.unreadable == "" {
				sha = w.CertifiedAll(t)
				w.CandidateNamed(t, sha)
			}
			reactions, replies := w.AnswerOf(t, w.Control.Comment("olivia", "/aep accept 1 "+sha))
			if got := strings.Join(reactions, ","); (got == "+1") != tt.counts || (got == "-1") == tt.counts {
				t.Errorf("the owner's acceptance got %v and %d replies, want counted %v", reactions, len(replies), tt.counts)
			}
			if tt.unreadable != "" && (len(replies) != 1 || !strings.Contains(replies[0], tt.unreadable)) {
				t.Errorf("the refusal does not name %s: %v", tt.unreadable, replies)
			}
			if tt.unreadable == "" {
				if _, done := w.Complete(t, sha); done != tt.counts {
					t.Errorf("increment complete %v, want %v", done, tt.counts)
				}
			}
		})
	}
}

// TestPeopleCloseAfterSourceFixed: a unit closed while the owners' source
// cannot be read (no CODEOWNERS yet) is judged with no owner; once
// CODEOWNERS names dana, her `/aep close` counts: a command is judged on
// who owns the repository when it is made, not on the owners stored with
// the closure.
func TestPeopleCloseAfterSourceFixed(t *testing.T) {
	t.Parallel()
	missing := peopleSources[5]
	if missing.name != "CODEOWNERS missing" {
		t.Fatalf("source %q", missing.name)
	}
	w := newPeopleWorld(t, missing, nil)
	unit := w.Repo.OpenIssue("dana", "Unit", appkit.Contract("low", "product"), ghfake.InMilestone(w.Repo.CreateMilestone("M", "")))
	unit.Close("dana")
	appkit.WaitFor(t, 10*time.Second, "the closure comment", func() bool { return appkit.ClosureComments(unit) > 0 })
	w.Repo.Commit("main", "owners", map[string]string{".github/CODEOWNERS": "* @dana\n"})
	w.Quiet(t)
	cmd := unit.Comment("dana", "/aep close shipped by hand")
	appkit.WaitFor(t, 10*time.Second, "a reaction", func() bool { c, _ := w.Repo.CommentByID(cmd.ID()); return len(c.Reactions) > 0 })
	c, _ := w.Repo.CommentByID(cmd.ID())
	if diff := cmp.Diff([]string{"+1"}, c.Reactions); diff != "" {
		t.Errorf("dana's `/aep close` once CODEOWNERS names her (-want +got):\n%s", diff)
	}
}
