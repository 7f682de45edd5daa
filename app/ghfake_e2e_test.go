package app_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

func TestGhfakeWorkUnitLifecycle(t *testing.T) {
	w := appkit.NewLive(t)
	// alice is the owner: her own closure of a dependency counts as done
	// (protocol/closurerules).
	w.Repo.Grant("alice", "admin")
	w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": "version: 1\nowners: [alice]\n"})
	ms := w.Repo.CreateMilestone("Exports", "Ship exports.\n\n```yaml\nrisk: medium\ndemonstration: a CSV is downloaded\n```\n")
	api := w.Repo.OpenIssue("alice", "Report API", appkit.Contract("low", "contract"), ghfake.InMilestone(ms))
	export := w.Repo.OpenIssue("alice", "Export reports", appkit.Contract("medium", "product", api.Number()), ghfake.InMilestone(ms))
	api.Close("alice")
	w.Repo.Branch("feature", "main")
	w.Repo.Commit("feature", "export", map[string]string{"export.go": "package x\n"})
	pr := w.Repo.OpenPR("bob", "feature", "main", "Export", "Adds CSV export.\n\nWork-unit: #"+strconv.Itoa(export.Number()))
	head := pr.Head()
	// The dependency's closure is judged on its own delivery, which may come
	// after the pull request's first judging.
	appkit.WaitFor(t, 10*time.Second, "work-unit check on the PR head", func() bool { return w.WorkUnitRun(head) != nil })
	appkit.WaitUntil(10*time.Second, func() bool { return w.WorkUnitRun(head).Conclusion == "success" })
	if r := w.WorkUnitRun(head); r.Conclusion != "success" {
		t.Fatalf("conclusion %q, title %q\n%s", r.Conclusion, r.Title, r.Summary)
	}

	// Reopening the dependency fails the PR; closing it again passes.
	api.Reopen("alice")
	appkit.WaitFor(t, 10*time.Second, "failure after the dependency reopened", func() bool { return w.WorkUnitRun(head).Conclusion == "failure" })
	if r := w.WorkUnitRun(head); !strings.Contains(r.Summary, "is still open") {
		t.Errorf("summary:\n%s", r.Summary)
	}

	// A native blocker (GitHub's blocked-by) also blocks, once an edit re-evaluates.
	api.Close("alice")
	appkit.WaitFor(t, 10*time.Second, "success after the dependency closed", func() bool { return w.WorkUnitRun(head).Conclusion == "success" })
	blocker := w.Repo.OpenIssue("carol", "Infra", "no contract needed")
	export.BlockedBy(blocker)
	export.Edit("alice", appkit.Contract("medium", "product", api.Number())+"\n(edited)")
	appkit.WaitFor(t, 10*time.Second, "failure from the native blocker", func() bool { return w.WorkUnitRun(head).Conclusion == "failure" })
	if r := w.WorkUnitRun(head); !strings.Contains(r.Summary, "is blocked by #"+strconv.Itoa(blocker.Number())) {
		t.Errorf("summary:\n%s", r.Summary)
	}
	n := 0
	for _, r := range w.Repo.CheckRuns(head) {
		if r.Name == checks.NameWorkUnit {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d %s runs on the head, want 1 (updated in place)", n, checks.NameWorkUnit)
	}
	for _, d := range w.F.Deliveries() {
		if d.Status != 202 && d.Status != 200 {
			t.Errorf("delivery %s %s answered %d", d.Event, d.Action, d.Status)
		}
	}
}

func TestGhfakeBrokenConfigOnDefaultBranch(t *testing.T) {
	w := appkit.NewLive(t)
	w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": "version: 1\nowners: alice\n"})
	ms := w.Repo.CreateMilestone("M", "")
	u := w.Repo.OpenIssue("alice", "Unit", appkit.Contract("low", "product"), ghfake.InMilestone(ms))
	w.Repo.Branch("fix", "main")
	// The PR tries to fix the config itself; it must not count.
	w.Repo.Commit("fix", "fix config", map[string]string{".github/aepgate.yml": "version: 1\nowners: [alice]\n"})
	pr := w.Repo.OpenPR("bob", "fix", "main", "Fix", "Fixes #"+strconv.Itoa(u.Number()))
	head := pr.Head()
	appkit.WaitFor(t, 10*time.Second, "config check", func() bool {
		for _, r := range w.Repo.CheckRuns(head) {
			if r.Name == checks.NameConfig {
				return true
			}
		}
		return false
	})
	for _, r := range w.Repo.CheckRuns(head) {
		if r.Name == checks.NameConfig && (r.Conclusion != "failure" || !strings.Contains(r.Summary, "owners")) {
			t.Errorf("config run: %s\n%s", r.Conclusion, r.Summary)
		}
	}
	appkit.WaitFor(t, 10*time.Second, "work-unit check", func() bool { return w.WorkUnitRun(head) != nil })
	if r := w.WorkUnitRun(head); r.Conclusion != "failure" {
		t.Errorf("work-unit with a broken default-branch config: %s", r.Conclusion)
	}

	// Fixing the config on the default branch (a push) turns both green.
	w.Repo.Commit("main", "fix config", map[string]string{".github/aepgate.yml": "version: 1\nowners: [alice]\nauditors: [carol]\n"})
	appkit.WaitFor(t, 10*time.Second, "work-unit success after the config fix", func() bool { return w.WorkUnitRun(head).Conclusion == "success" })
	// The failing run carried annotations GitHub cannot delete, so the
	// publisher wrote a fresh run; GitHub shows the newest.
	appkit.WaitFor(t, 10*time.Second, "config success after the fix", func() bool {
		var newest string
		for _, r := range w.Repo.CheckRuns(head) {
			if r.Name == checks.NameConfig {
				newest = r.Conclusion
			}
		}
		return newest == "success"
	})
}

func TestGhfakeAPICallsPerEvaluation(t *testing.T) {
	w := appkit.NewLive(t)
	pr := w.UnitPR("calls")
	head := pr.Head()
	appkit.WaitFor(t, 10*time.Second, "first judgement", func() bool { return w.WorkUnitRun(head) != nil })
	w.Quiet(t)

	// A new push: one evaluation of a new head, which must write.
	w.F.ResetLog()
	head = pr.Commit("more", map[string]string{"more.go": "package x\n"})
	appkit.WaitFor(t, 10*time.Second, "judgement of the new head", func() bool { return w.WorkUnitRun(head) != nil })
	w.Quiet(t)
	if reads, writes := appkit.APICalls(w.F.Stats()); reads > 2 || writes != appkit.ChecksOnNewHead {
		t.Errorf("new head cost %d reads and %d writes (want ≤ 2 and %d):\n%v", reads, writes, appkit.ChecksOnNewHead, w.F.Stats().ByRoute)
	}

	// The same delivery content again (pull_request.edited, nothing
	// changed): one read, no write.
	w.F.ResetLog()
	w.Redeliver(t, "pull_request", "edited")
	appkit.WaitFor(t, 10*time.Second, "unchanged re-judgement", func() bool { return w.F.Stats().Total > 0 })
	w.Quiet(t)
	if reads, writes := appkit.APICalls(w.F.Stats()); reads > 2 || writes != 0 {
		t.Errorf("unchanged verdict cost %d reads and %d writes (want ≤ 2 and 0):\n%v", reads, writes, w.F.Stats().ByRoute)
	}
}

func TestGhfakeFaultsLoseNothingAndDuplicateNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("reliability test: runs without -short")
	}
	w := appkit.NewLive(t)
	w.F.Seed(7)
	w.F.InjectFault("*", ghfake.Fault{Kind: ghfake.FaultStatus, Rate: 0.07})
	w.F.InjectFault("*", ghfake.Fault{Kind: ghfake.FaultSecondary, RetryAfter: 1, Rate: 0.07})
	w.F.InjectFault("*", ghfake.Fault{Kind: ghfake.FaultLostResponse, Rate: 0.06})
	var heads []string
	for i := range 12 {
		heads = append(heads, w.UnitPR("f"+strconv.Itoa(i)).Head())
	}
	appkit.WaitFor(t, 60*time.Second, "every pull request judged", func() bool {
		for _, h := range heads {
			if r := w.WorkUnitRun(h); r == nil || r.Conclusion != "success" {
				return false
			}
		}
		return true
	})
	if w.F.Stats().Faults == 0 {
		t.Fatal("no faults injected")
	}
	for _, h := range heads {
		n := 0
		for _, r := range w.Repo.CheckRuns(h) {
			if r.Name == checks.NameWorkUnit {
				n++
			}
		}
		if n != 1 {
			t.Errorf("head %s has %d %s runs, want 1", h, n, checks.NameWorkUnit)
		}
	}
	t.Logf("%d faults injected", w.F.Stats().Faults)
}

func TestGhfakeReconcileRepairsLostDeliveries(t *testing.T) {
	w := appkit.NewLiveWith(t, false)
	pr := w.UnitPR("lost")
	if err := w.App.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if r := w.WorkUnitRun(pr.Head()); r == nil || r.Conclusion != "success" {
		t.Fatalf("reconcile did not judge the pull request: %+v", r)
	}
}

func TestGhfakeMissingUnit(t *testing.T) {
	w := appkit.NewLive(t)
	w.Repo.Branch("ghost", "main")
	w.Repo.Commit("ghost", "work", map[string]string{"g.go": "package x\n"})
	pr := w.Repo.OpenPR("bob", "ghost", "main", "Ghost", "Work-unit: #999")
	head := pr.Head()
	appkit.WaitFor(t, 10*time.Second, "work-unit check", func() bool { return w.WorkUnitRun(head) != nil })
	if r := w.WorkUnitRun(head); r.Conclusion != "failure" || !strings.Contains(r.Summary, "#999 does not exist") {
		t.Errorf("%s\n%s", r.Conclusion, r.Summary)
	}
}

// TestGhfakeMissingPermissionsSayHowToFix installs the App without Issues
// and Contents read: the check fails (closed) and says what to grant.
func TestGhfakeMissingPermissionsSayHowToFix(t *testing.T) {
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	ghApp := f.App(appkit.AppID, appkit.Key(t))
	repo := f.CreateRepo("acme/widgets")
	ghApp.Install("acme", ghfake.Permissions{"checks": "write", "pull_requests": "read", "metadata": "read"}, repo)
	o := appkit.Options(t, nil, "")
	o.GitHubURL = f.URL()
	_, base := appkit.Start(t, o)
	f.SendWebhooks(base+"/webhook", appkit.Secret, ghApp)
	w := &appkit.Live{F: f, Repo: repo, Base: base}
	pr := w.UnitPR("perm")
	head := pr.Head()
	appkit.WaitFor(t, 10*time.Second, "work-unit check", func() bool { return w.WorkUnitRun(head) != nil })
	r := w.WorkUnitRun(head)
	if r.Conclusion != "failure" || !strings.Contains(r.Summary, `grant the App "Issues: read"`) {
		t.Errorf("%s\n%s", r.Conclusion, r.Summary)
	}
	t.Logf("summary:\n%s", r.Summary)
}

// TestGhfakeReconcileUsesConditionalRequests: the second sweep's repeated
// REST reads are answered 304 (free of rate limit) from the ETag cache.
func TestGhfakeReconcileUsesConditionalRequests(t *testing.T) {
	w := appkit.NewLiveWith(t, false)
	w.UnitPR("etag")
	for range 2 {
		if err := w.App.Sweep(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if st := w.F.Stats(); st.NotModified == 0 {
		t.Errorf("no 304 answers in two sweeps: %v", st.ByRoute)
	}
}

// TestGhfakeReconcileStopsOnRateLimit: once GitHub rate-limits an
// installation, its sweep ends at once instead of going on to its other
// repositories (persisting while limited can get an App banned: GitHub docs,
// Rate limits for the REST API).
// Other installations have limits of their own, so the sweep goes on.
func TestGhfakeReconcileStopsOnRateLimit(t *testing.T) {
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	ghApp := f.App(appkit.AppID, appkit.Key(t))
	repos := []*ghfake.Repo{f.CreateRepo("acme/one"), f.CreateRepo("acme/two"), f.CreateRepo("acme/three")}
	ghApp.Install("acme", appkit.WorldPerms, repos...)
	o := appkit.Options(t, nil, "")
	o.GitHubURL = f.URL()
	a, _ := appkit.Start(t, o)
	f.InjectFault("POST /graphql", ghfake.Fault{Kind: ghfake.FaultSecondary, RetryAfter: 30})
	if err := a.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	graphql := 0
	for _, r := range f.Requests() {
		if r.Pattern == "POST /graphql" {
			graphql++
		}
	}
	if graphql != 1 {
		t.Errorf("%d GraphQL requests after the first was rate limited, want 1 (the sweep must stop)", graphql)
	}
}
