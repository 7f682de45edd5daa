package appkit

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/board"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// Live is a repository (acme/widgets) on internal/testkit/ghfake with the
// App installed and delivering its webhooks to a running App.
type Live struct {
	F    *ghfake.Fake
	Repo *ghfake.Repo
	App  *app.App
	Base string
	Inst *ghfake.Installation
	// ghApp is the App as GitHub knows it (whose webhooks are sent).
	GHApp *ghfake.App
}

// LivePerms are the permissions of the Live world's installation.
var LivePerms = ghfake.Permissions{"checks": "write", "contents": "read", "issues": "write", "pull_requests": "write", "metadata": "read", "actions": "read", "members": "read"}

// NewLive builds the Live world.
func NewLive(t testing.TB) *Live {
	return NewLiveWith(t, true)
}

// NewLiveWith builds the world; send=false only collects the webhooks (as
// if GitHub lost them).
func NewLiveWith(t testing.TB, send bool) *Live {
	return NewLiveOpts(t, send, nil)
}

// NewLiveOpts is NewLiveWith with the App's options changed by edit (nil:
// unchanged).
func NewLiveOpts(t testing.TB, send bool, edit func(*app.Options)) *Live {
	return NewLivePerms(t, send, edit, LivePerms)
}

// NewLivePerms is NewLiveOpts with the installation's permissions perms.
func NewLivePerms(t testing.TB, send bool, edit func(*app.Options), perms ghfake.Permissions) *Live {
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	key := Key(t)
	ghApp := f.App(AppID, key)
	repo := f.CreateRepo("acme/widgets")
	inst := ghApp.Install("acme", perms, repo)
	o := Options(t, nil, "")
	o.GitHubURL = f.URL()
	if edit != nil {
		edit(&o)
	}
	a, base := Start(t, o)
	if send {
		f.SendWebhooks(base+"/webhook", Secret, ghApp)
	} else {
		f.CollectWebhooks(Secret, ghApp)
	}
	return &Live{F: f, Repo: repo, App: a, Base: base, Inst: inst, GHApp: ghApp}
}

// WorkUnitRun returns the newest aepgate/work-unit run on sha, or nil.
func (w *Live) WorkUnitRun(sha string) *ghfake.CheckRun {
	return NewestRunOn(w.Repo, sha, checks.NameWorkUnit)
}

// NewestRunOn is the newest check run called name on sha (the one GitHub
// shows), or nil.
func NewestRunOn(repo *ghfake.Repo, sha, name string) *ghfake.CheckRun {
	var found *ghfake.CheckRun
	for _, r := range repo.CheckRuns(sha) {
		if r.Name == name {
			found = &r
		}
	}
	return found
}

// ConclusionOf is the newest run's conclusion, "" when there is none.
func ConclusionOf(repo *ghfake.Repo, sha, name string) string {
	if r := NewestRunOn(repo, sha, name); r != nil {
		return r.Conclusion
	}
	return ""
}

// UnitPR opens milestone M with one product unit and a pull request naming
// it, on branch name, and returns the pull request.
func (w *Live) UnitPR(name string) *ghfake.PR {
	ms := w.Repo.CreateMilestone("M-"+name, "")
	u := w.Repo.OpenIssue("alice", "Unit "+name, Contract("low", "product"), ghfake.InMilestone(ms))
	w.Repo.Branch(name, "main")
	w.Repo.Commit(name, "work", map[string]string{name + ".go": "package x\n"})
	return w.Repo.OpenPR("bob", name, "main", "Work "+name, "Work-unit: #"+strconv.Itoa(u.Number()))
}

// APICalls counts reads and writes the way GitHub's limits see them: a
// GraphQL query is a read although it is a POST.
func APICalls(st ghfake.Stats) (reads, writes int) {
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

// Redeliver sends the latest recorded delivery of event again as action,
// under a fresh delivery ID. (ghfake reports pull request body edits as
// issues events; GitHub sends pull_request.edited.)
func (w *Live) Redeliver(t testing.TB, event, action string) {
	t.Helper()
	var payload map[string]any
	for _, d := range w.F.Deliveries() {
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
	if got := Deliver(t, w.Base, event, fmt.Sprintf("re-%d", time.Now().UnixNano()), body); got != 202 {
		t.Fatalf("redelivery: %d", got)
	}
}

// CopyPayload is body with a field no job reads added, so a copy sent
// under a new delivery ID is not taken for a replay of body.
func CopyPayload(t testing.TB, body []byte) []byte {
	t.Helper()
	var p map[string]any
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatal(err)
	}
	p["aepgate_test_copy"] = time.Now().UnixNano()
	out, _ := json.Marshal(p)
	return out
}

// DrainBound bounds a wait for the App's queue to drain. The queue of a
// test holds a few evaluations, but on the shared 2-core CI machine (load
// averages of 30 measured) one evaluation has taken over 10 s, the bound
// these waits had: TestNonAgentPRUnaffected timed out draining one
// review's jobs.
const DrainBound = 30 * time.Second

// Idle waits until every webhook the fake sent so far was answered and
// the App's queue holds no job still to run, board updates included: for
// worlds whose BoardDelay is short (board tests), where quiet would leave
// a board update running beside what the test measures next.
func (w *Live) Idle(t testing.TB) {
	t.Helper()
	w.F.Deliveries()
	WaitFor(t, DrainBound, "the App's queue to drain, board updates included", func() bool {
		var n int
		err := w.App.Store().SQL.QueryRowContext(context.Background(),
			`SELECT COUNT(*) FROM river_job WHERE state NOT IN ('completed', 'cancelled', 'discarded')`).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		return n == 0
	})
}

// Quiet waits until the world's webhooks are delivered and its App's
// queue is drained (Drained).
func (w *Live) Quiet(t testing.TB) { t.Helper(); Drained(t, w.F, w.App) }

// Drained waits until the fake's webhooks are delivered and the App's
// queue (board updates aside) holds no job still to run, scheduled ones
// included. It ends as soon as the queue is empty; its bound, drainBound,
// only stops a test that would hang.
func Drained(t testing.TB, f *ghfake.Fake, a *app.App) {
	t.Helper()
	f.Deliveries()
	WaitFor(t, DrainBound, "the App's queue to drain", func() bool {
		var n int
		err := a.Store().SQL.QueryRowContext(context.Background(),
			`SELECT COUNT(*) FROM river_job WHERE state NOT IN ('completed', 'cancelled', 'discarded') AND queue <> ?`, board.Queue).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		return n == 0
	})
}

// LedgerRows counts the rows of kind in a's ledger.
func LedgerRows(t testing.TB, a *app.App, kind string) int {
	t.Helper()
	var n int
	if err := a.Store().SQL.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM aepgate_ledger WHERE kind = ?`, kind).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
