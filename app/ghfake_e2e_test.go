package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// ghfakeWorld is a repository on internal/testkit/ghfake with the App installed
// and delivering its webhooks to a running serve.
type ghfakeWorld struct {
	f    *ghfake.Fake
	repo *ghfake.Repo
	app  *App
	base string
	inst *ghfake.Installation
	// ghApp is the App as GitHub knows it (whose webhooks are sent).
	ghApp *ghfake.App
}

func newGhfakeWorld(t *testing.T) *ghfakeWorld {
	return newGhfakeWorldWith(t, true)
}

// newGhfakeWorldWith builds the world; send=false only collects the
// webhooks (as if GitHub lost them).
func newGhfakeWorldWith(t *testing.T, send bool) *ghfakeWorld {
	return newGhfakeWorldOpts(t, send, nil)
}

// newGhfakeWorldOpts is newGhfakeWorldWith with the App's options changed
// by edit (nil: unchanged).
func newGhfakeWorldOpts(t *testing.T, send bool, edit func(*Options)) *ghfakeWorld {
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	key := appKey(t)
	ghApp := f.App(testAppID, key)
	repo := f.CreateRepo("acme/widgets")
	inst := ghApp.Install("acme", ghfake.Permissions{"checks": "write", "contents": "read", "issues": "write", "pull_requests": "write", "metadata": "read", "actions": "read", "members": "read"}, repo)
	o := testOptions(t, nil, "")
	o.GitHubURL = f.URL()
	if edit != nil {
		edit(&o)
	}
	a, base := startApp(t, o)
	if send {
		f.SendWebhooks(base+"/webhook", testSecret, ghApp)
	} else {
		f.CollectWebhooks(testSecret, ghApp)
	}
	return &ghfakeWorld{f: f, repo: repo, app: a, base: base, inst: inst, ghApp: ghApp}
}

// workUnitRun returns the newest aepgate/work-unit run on sha, or nil.
func (w *ghfakeWorld) workUnitRun(sha string) *ghfake.CheckRun {
	return newestRunOn(w.repo, sha, checks.NameWorkUnit)
}

// newestRunOn is the newest check run called name on sha (the one GitHub
// shows), or nil.
func newestRunOn(repo *ghfake.Repo, sha, name string) *ghfake.CheckRun {
	var found *ghfake.CheckRun
	for _, r := range repo.CheckRuns(sha) {
		if r.Name == name {
			found = &r
		}
	}
	return found
}

// conclusionOf is the newest run's conclusion, "" when there is none.
func conclusionOf(repo *ghfake.Repo, sha, name string) string {
	if r := newestRunOn(repo, sha, name); r != nil {
		return r.Conclusion
	}
	return ""
}

func TestGhfakeWorkUnitLifecycle(t *testing.T) {
	w := newGhfakeWorld(t)
	// alice is the owner: her own closure of a dependency counts as done
	// (protocol/closure).
	w.repo.Grant("alice", "admin")
	w.repo.Commit("main", "config", map[string]string{".github/aepgate.yml": "version: 1\nowners: [alice]\n"})
	ms := w.repo.CreateMilestone("Exports", "Ship exports.\n\n```yaml\nrisk: medium\ndemonstration: a CSV is downloaded\n```\n")
	api := w.repo.OpenIssue("alice", "Report API", contract("low", "contract"), ghfake.InMilestone(ms))
	export := w.repo.OpenIssue("alice", "Export reports", contract("medium", "product", api.Number()), ghfake.InMilestone(ms))
	api.Close("alice")
	w.repo.Branch("feature", "main")
	w.repo.Commit("feature", "export", map[string]string{"export.go": "package x\n"})
	pr := w.repo.OpenPR("bob", "feature", "main", "Export", "Adds CSV export.\n\nWork-unit: #"+strconv.Itoa(export.Number()))
	head := pr.Head()
	// The dependency's closure is judged on its own delivery, which may come
	// after the pull request's first judging.
	waitFor(t, 10*time.Second, "work-unit check on the PR head", func() bool { return w.workUnitRun(head) != nil })
	waitUntil(10*time.Second, func() bool { return w.workUnitRun(head).Conclusion == "success" })
	if r := w.workUnitRun(head); r.Conclusion != "success" {
		t.Fatalf("conclusion %q, title %q\n%s", r.Conclusion, r.Title, r.Summary)
	}

	// Reopening the dependency fails the PR; closing it again passes.
	api.Reopen("alice")
	waitFor(t, 10*time.Second, "failure after the dependency reopened", func() bool { return w.workUnitRun(head).Conclusion == "failure" })
	if r := w.workUnitRun(head); !strings.Contains(r.Summary, "is still open") {
		t.Errorf("summary:\n%s", r.Summary)
	}

	// A native blocker (GitHub's blocked-by) also blocks, once an edit re-evaluates.
	api.Close("alice")
	waitFor(t, 10*time.Second, "success after the dependency closed", func() bool { return w.workUnitRun(head).Conclusion == "success" })
	blocker := w.repo.OpenIssue("carol", "Infra", "no contract needed")
	export.BlockedBy(blocker)
	export.Edit("alice", contract("medium", "product", api.Number())+"\n(edited)")
	waitFor(t, 10*time.Second, "failure from the native blocker", func() bool { return w.workUnitRun(head).Conclusion == "failure" })
	if r := w.workUnitRun(head); !strings.Contains(r.Summary, "is blocked by #"+strconv.Itoa(blocker.Number())) {
		t.Errorf("summary:\n%s", r.Summary)
	}
	n := 0
	for _, r := range w.repo.CheckRuns(head) {
		if r.Name == checks.NameWorkUnit {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d %s runs on the head, want 1 (updated in place)", n, checks.NameWorkUnit)
	}
	for _, d := range w.f.Deliveries() {
		if d.Status != 202 && d.Status != 200 {
			t.Errorf("delivery %s %s answered %d", d.Event, d.Action, d.Status)
		}
	}
}

func TestGhfakeBrokenConfigOnDefaultBranch(t *testing.T) {
	w := newGhfakeWorld(t)
	w.repo.Commit("main", "config", map[string]string{".github/aepgate.yml": "version: 1\nowners: alice\n"})
	ms := w.repo.CreateMilestone("M", "")
	u := w.repo.OpenIssue("alice", "Unit", contract("low", "product"), ghfake.InMilestone(ms))
	w.repo.Branch("fix", "main")
	// The PR tries to fix the config itself; it must not count.
	w.repo.Commit("fix", "fix config", map[string]string{".github/aepgate.yml": "version: 1\nowners: [alice]\n"})
	pr := w.repo.OpenPR("bob", "fix", "main", "Fix", "Fixes #"+strconv.Itoa(u.Number()))
	head := pr.Head()
	waitFor(t, 10*time.Second, "config check", func() bool {
		for _, r := range w.repo.CheckRuns(head) {
			if r.Name == checks.NameConfig {
				return true
			}
		}
		return false
	})
	for _, r := range w.repo.CheckRuns(head) {
		if r.Name == checks.NameConfig && (r.Conclusion != "failure" || !strings.Contains(r.Summary, "owners")) {
			t.Errorf("config run: %s\n%s", r.Conclusion, r.Summary)
		}
	}
	waitFor(t, 10*time.Second, "work-unit check", func() bool { return w.workUnitRun(head) != nil })
	if r := w.workUnitRun(head); r.Conclusion != "failure" {
		t.Errorf("work-unit with a broken default-branch config: %s", r.Conclusion)
	}

	// Fixing the config on the default branch (a push) turns both green.
	w.repo.Commit("main", "fix config", map[string]string{".github/aepgate.yml": "version: 1\nowners: [alice]\nauditors: [carol]\n"})
	waitFor(t, 10*time.Second, "work-unit success after the config fix", func() bool { return w.workUnitRun(head).Conclusion == "success" })
	// The failing run carried annotations GitHub cannot delete, so the
	// publisher wrote a fresh run; GitHub shows the newest.
	waitFor(t, 10*time.Second, "config success after the fix", func() bool {
		var newest string
		for _, r := range w.repo.CheckRuns(head) {
			if r.Name == checks.NameConfig {
				newest = r.Conclusion
			}
		}
		return newest == "success"
	})
}

// unitPR opens milestone M with one product unit and a pull request naming
// it, on branch name, and returns the pull request.
func (w *ghfakeWorld) unitPR(name string) *ghfake.PR {
	ms := w.repo.CreateMilestone("M-"+name, "")
	u := w.repo.OpenIssue("alice", "Unit "+name, contract("low", "product"), ghfake.InMilestone(ms))
	w.repo.Branch(name, "main")
	w.repo.Commit(name, "work", map[string]string{name + ".go": "package x\n"})
	return w.repo.OpenPR("bob", name, "main", "Work "+name, "Work-unit: #"+strconv.Itoa(u.Number()))
}

func TestGhfakeAPICallsPerEvaluation(t *testing.T) {
	w := newGhfakeWorld(t)
	pr := w.unitPR("calls")
	head := pr.Head()
	waitFor(t, 10*time.Second, "first judgement", func() bool { return w.workUnitRun(head) != nil })
	w.quiet(t)

	// A new push: one evaluation of a new head, which must write.
	w.f.ResetLog()
	head = pr.Commit("more", map[string]string{"more.go": "package x\n"})
	waitFor(t, 10*time.Second, "judgement of the new head", func() bool { return w.workUnitRun(head) != nil })
	w.quiet(t)
	if reads, writes := apiCalls(w.f.Stats()); reads > 2 || writes != checksOnNewHead {
		t.Errorf("new head cost %d reads and %d writes (want ≤ 2 and %d):\n%v", reads, writes, checksOnNewHead, w.f.Stats().ByRoute)
	}

	// The same delivery content again (pull_request.edited, nothing
	// changed): one read, no write.
	w.f.ResetLog()
	w.redeliver(t, "pull_request", "edited")
	waitFor(t, 10*time.Second, "unchanged re-judgement", func() bool { return w.f.Stats().Total > 0 })
	w.quiet(t)
	if reads, writes := apiCalls(w.f.Stats()); reads > 2 || writes != 0 {
		t.Errorf("unchanged verdict cost %d reads and %d writes (want ≤ 2 and 0):\n%v", reads, writes, w.f.Stats().ByRoute)
	}
}

// apiCalls counts reads and writes the way GitHub's limits see them: a
// GraphQL query is a read although it is a POST.
func apiCalls(st ghfake.Stats) (reads, writes int) {
	for route, n := range st.ByRoute {
		switch {
		case strings.HasPrefix(route, "GET "), route == "POST /graphql":
			reads += n
		default:
			writes += n
		}
	}
	return reads, writes
}

// redeliver sends the latest recorded delivery of event again as action,
// under a fresh delivery ID. (ghfake reports pull request body edits as
// issues events; GitHub sends pull_request.edited.)
func (w *ghfakeWorld) redeliver(t *testing.T, event, action string) {
	t.Helper()
	var payload map[string]any
	for _, d := range w.f.Deliveries() {
		if d.Event == event {
			payload = nil
			json.Unmarshal(d.Payload, &payload)
		}
	}
	if payload == nil {
		t.Fatalf("no %s delivery recorded", event)
	}
	payload["action"] = action
	// A field no job reads: the same body under a new ID would be a
	// replay, answered 200 and not queued.
	payload["aepgate_test_copy"] = time.Now().UnixNano()
	body, _ := json.Marshal(payload)
	if got := deliver(t, w.base, event, fmt.Sprintf("re-%d", time.Now().UnixNano()), body); got != 202 {
		t.Fatalf("redelivery: %d", got)
	}
}

func TestGhfakeFaultsLoseNothingAndDuplicateNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("reliability test: runs without -short")
	}
	w := newGhfakeWorld(t)
	w.f.Seed(7)
	w.f.InjectFault("*", ghfake.Fault{Kind: ghfake.FaultStatus, Rate: 0.07})
	w.f.InjectFault("*", ghfake.Fault{Kind: ghfake.FaultSecondary, RetryAfter: 1, Rate: 0.07})
	w.f.InjectFault("*", ghfake.Fault{Kind: ghfake.FaultLostResponse, Rate: 0.06})
	var heads []string
	for i := range 12 {
		heads = append(heads, w.unitPR("f"+strconv.Itoa(i)).Head())
	}
	waitFor(t, 60*time.Second, "every pull request judged", func() bool {
		for _, h := range heads {
			if r := w.workUnitRun(h); r == nil || r.Conclusion != "success" {
				return false
			}
		}
		return true
	})
	if w.f.Stats().Faults == 0 {
		t.Fatal("no faults injected")
	}
	for _, h := range heads {
		n := 0
		for _, r := range w.repo.CheckRuns(h) {
			if r.Name == checks.NameWorkUnit {
				n++
			}
		}
		if n != 1 {
			t.Errorf("head %s has %d %s runs, want 1", h, n, checks.NameWorkUnit)
		}
	}
	t.Logf("%d faults injected", w.f.Stats().Faults)
}

func TestGhfakeReconcileRepairsLostDeliveries(t *testing.T) {
	w := newGhfakeWorldWith(t, false)
	pr := w.unitPR("lost")
	if err := w.app.runReconcile(context.Background()); err != nil {
		t.Fatal(err)
	}
	if r := w.workUnitRun(pr.Head()); r == nil || r.Conclusion != "success" {
		t.Fatalf("reconcile did not judge the pull request: %+v", r)
	}
}

func TestGhfakeMissingUnit(t *testing.T) {
	w := newGhfakeWorld(t)
	w.repo.Branch("ghost", "main")
	w.repo.Commit("ghost", "work", map[string]string{"g.go": "package x\n"})
	pr := w.repo.OpenPR("bob", "ghost", "main", "Ghost", "Work-unit: #999")
	head := pr.Head()
	waitFor(t, 10*time.Second, "work-unit check", func() bool { return w.workUnitRun(head) != nil })
	if r := w.workUnitRun(head); r.Conclusion != "failure" || !strings.Contains(r.Summary, "#999 does not exist") {
		t.Errorf("%s\n%s", r.Conclusion, r.Summary)
	}
}

// TestGhfakeMissingPermissionsSayHowToFix installs the App without Issues
// and Contents read: the check fails (closed) and says what to grant.
func TestGhfakeMissingPermissionsSayHowToFix(t *testing.T) {
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	ghApp := f.App(testAppID, appKey(t))
	repo := f.CreateRepo("acme/widgets")
	ghApp.Install("acme", ghfake.Permissions{"checks": "write", "pull_requests": "read", "metadata": "read"}, repo)
	o := testOptions(t, nil, "")
	o.GitHubURL = f.URL()
	_, base := startApp(t, o)
	f.SendWebhooks(base+"/webhook", testSecret, ghApp)
	w := &ghfakeWorld{f: f, repo: repo, base: base}
	pr := w.unitPR("perm")
	head := pr.Head()
	waitFor(t, 10*time.Second, "work-unit check", func() bool { return w.workUnitRun(head) != nil })
	r := w.workUnitRun(head)
	if r.Conclusion != "failure" || !strings.Contains(r.Summary, `grant the App "Issues: read"`) {
		t.Errorf("%s\n%s", r.Conclusion, r.Summary)
	}
	t.Logf("summary:\n%s", r.Summary)
}

// TestGhfakeReconcileUsesConditionalRequests: the second sweep's repeated
// REST reads are answered 304 (free of rate limit) from the ETag cache.
func TestGhfakeReconcileUsesConditionalRequests(t *testing.T) {
	w := newGhfakeWorldWith(t, false)
	w.unitPR("etag")
	for range 2 {
		if err := w.app.runReconcile(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if st := w.f.Stats(); st.NotModified == 0 {
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
	ghApp := f.App(testAppID, appKey(t))
	repos := []*ghfake.Repo{f.CreateRepo("acme/one"), f.CreateRepo("acme/two"), f.CreateRepo("acme/three")}
	ghApp.Install("acme", worldPerms, repos...)
	o := testOptions(t, nil, "")
	o.GitHubURL = f.URL()
	a, _ := startApp(t, o)
	f.InjectFault("POST /graphql", ghfake.Fault{Kind: ghfake.FaultSecondary, RetryAfter: 30})
	if err := a.runReconcile(context.Background()); err != nil {
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

// copyPayload is body with a field no job reads added, so a copy sent
// under a new delivery ID is not taken for a replay of body.
func copyPayload(t *testing.T, body []byte) []byte {
	t.Helper()
	var p map[string]any
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatal(err)
	}
	p["aepgate_test_copy"] = time.Now().UnixNano()
	out, _ := json.Marshal(p)
	return out
}
