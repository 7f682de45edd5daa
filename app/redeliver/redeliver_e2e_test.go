package redeliver_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/app/redeliver"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// redeliverGrace is the redelivery's grace in these tests: longer than a
// delivery the fake is still sending takes (its log keeps whole seconds),
// shorter than the wait before serve starts again.
const redeliverGrace = 3 * time.Second

// TestRedeliverRecoversWhatServeMissed: serve stops; while it is down the
// owner puts unit A on HOLD in a comment and answers the coordinator's gate
// on pull request B with an approving review, and GitHub's log shows both
// deliveries failed. serve starts again on the same database: its
// redelivery finds them in the log, asks GitHub for each once, and each is
// judged once (the HOLD shows on A's aepgate/gates, B's gate is answered;
// one job and no repeated ledger row per delivery). The negative control
// starts serve again with the redelivery off: neither is ever judged.
func TestRedeliverRecoversWhatServeMissed(t *testing.T) {
	for _, tc := range []struct {
		name string
		on   bool
	}{{"redelivery on", true}, {"redelivery off (negative control)", false}} {
		t.Run(tc.name, func(t *testing.T) {
			s := newRedeliverScene(t)
			missed := s.missWhileDown(t)
			o := s.opts
			if !tc.on {
				o.Redeliver.Every = -1
			}
			a, base := s.restart(t, o)
			if tc.on {
				s.recovered(t, a, base, missed)
			} else {
				s.stillMissed(t, a, missed)
			}
		})
	}
}

// redeliverScene is a fake GitHub whose default branch names olivia owner
// and cody coordinator, unit A with pull request A and unit B with pull
// request B, on which cody opened a gate while serve was up.
type redeliverScene struct {
	f          *ghfake.Fake
	repo       *ghfake.Repo
	ghApp      *ghfake.App
	unitA      *ghfake.Issue
	prA, prB   *ghfake.PR
	opts       app.Options
	stopFirst  func()
	firstServe string
}

func newRedeliverScene(t *testing.T) *redeliverScene {
	t.Helper()
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	s := &redeliverScene{f: f, ghApp: f.App(appkit.AppID, appkit.Key(t)), repo: f.CreateRepo("acme/widgets")}
	s.ghApp.Install("acme", ghfake.Permissions{"checks": "write", "contents": "read", "issues": "write", "pull_requests": "write", "metadata": "read", "actions": "read", "members": "read"}, s.repo)
	s.repo.Commit("main", "config", map[string]string{".github/aepgate.yml": appkit.GatesConfig})
	s.repo.Grant("olivia", "admin")
	s.repo.Grant("cody", "write")
	s.opts = appkit.Options(t, nil, "sqlite:"+filepath.Join(t.TempDir(), "aepgate.db"))
	s.opts.GitHubURL = f.URL()
	s.opts.Redeliver = redeliver.Config{Every: 200 * time.Millisecond, Pause: -1, Grace: redeliverGrace}
	ln := listen(t)
	s.firstServe = "http://" + ln.Addr().String() + "/webhook"
	f.SendWebhooks(s.firstServe, appkit.Secret, s.ghApp)
	var a *app.App
	a, s.stopFirst = serveUntilStopped(t, s.opts, ln)
	s.unitA, s.prA = s.unitAndPR("a")
	_, s.prB = s.unitAndPR("b")
	s.waitGates(t, s.prA, "success")
	s.prB.Comment("cody", "```aep-gate\nid: ship-it\nquestion: Ship the new export format?\nchoices: [approve, reject]\ncategory: human-product-judgment-action\neffect: product-direction-decision\nscope: merge\n```\n")
	s.waitGates(t, s.prB, "action_required")
	appkit.Drained(t, f, a)
	return s
}

// unitAndPR opens a milestone with one product unit and a pull request
// naming it, on branch name.
func (s *redeliverScene) unitAndPR(name string) (*ghfake.Issue, *ghfake.PR) {
	ms := s.repo.CreateMilestone("M-"+name, "")
	u := s.repo.OpenIssue("alice", "Unit "+name, appkit.Contract("low", "product"), ghfake.InMilestone(ms))
	s.repo.Branch(name, "main")
	s.repo.Commit(name, "work", map[string]string{name + ".go": "package x\n"})
	return u, s.repo.OpenPR("bob", name, "main", "Work "+name, "Work-unit: #"+strconv.Itoa(u.Number()))
}

func (s *redeliverScene) gates(pr *ghfake.PR) string {
	return appkit.ConclusionOf(s.repo, pr.Head(), checks.NameGates)
}

func (s *redeliverScene) waitGates(t *testing.T, pr *ghfake.PR, want string) {
	t.Helper()
	appkit.WaitFor(t, 20*time.Second, "aepgate/gates "+want+" on "+pr.Head()[:7], func() bool { return s.gates(pr) == want })
}

// missWhileDown stops serve, then the owner's HOLD on unit A and approving
// review of pull request B are delivered to nobody; it returns those
// deliveries, each of which GitHub's log shows failed, once they are
// older than the redelivery's grace.
func (s *redeliverScene) missWhileDown(t *testing.T) []ghfake.Delivery {
	t.Helper()
	s.stopFirst()
	before := len(s.f.Deliveries())
	s.unitA.Comment("olivia", "Legal has not signed off.\n\n/aep hold waiting for legal")
	s.prB.SubmitReview("olivia", "APPROVED", "Ship it.")
	missed := s.f.Deliveries()[before:]
	events := map[string]bool{}
	for _, d := range missed {
		if d.Err == nil && d.Status >= 200 && d.Status < 300 {
			t.Fatalf("%s.%s %s was answered %d while serve was down", d.Event, d.Action, d.GUID, d.Status)
		}
		events[d.Event+"."+d.Action] = true
	}
	if !events["issue_comment.created"] || !events["pull_request_review.submitted"] {
		t.Fatalf("deliveries while serve was down: %v, want the HOLD's comment and the review", events)
	}
	time.Sleep(redeliverGrace + time.Second)
	return missed
}

// restart starts serve again on the database of the first, at a new
// address GitHub now delivers to.
func (s *redeliverScene) restart(t *testing.T, o app.Options) (*app.App, string) {
	t.Helper()
	ln := listen(t)
	base := "http://" + ln.Addr().String()
	s.f.SendWebhooks(base+"/webhook", appkit.Secret, s.ghApp)
	a, _ := serveUntilStopped(t, o, ln)
	return a, base
}

// recovered checks that every missed delivery was asked for once, judged
// once, and counted.
func (s *redeliverScene) recovered(t *testing.T, a *app.App, base string, missed []ghfake.Delivery) {
	t.Helper()
	s.waitGates(t, s.prA, "action_required")
	s.waitGates(t, s.prB, "success")
	appkit.Drained(t, s.f, a)
	time.Sleep(time.Second) // several more runs of the redelivery
	appkit.Drained(t, s.f, a)
	asked := map[string]int{}
	for _, d := range s.f.Deliveries() {
		if d.Redelivery {
			asked[d.GUID]++
		}
	}
	for _, d := range missed {
		if asked[d.GUID] != 1 {
			t.Errorf("%s.%s %s redelivered %d times, want once", d.Event, d.Action, d.GUID, asked[d.GUID])
		}
		if n := s.count(t, a, `SELECT COUNT(*) FROM river_job WHERE kind = ? AND json_extract(args, '$.delivery_id') = ?`, queue.Delivery{}.Kind(), d.GUID); n != 1 {
			t.Errorf("%s.%s %s: %d delivery jobs, want 1", d.Event, d.Action, d.GUID, n)
		}
		rows := s.count(t, a, `SELECT COUNT(*) FROM aepgate_ledger WHERE delivery_id = ?`, d.GUID)
		distinct := s.count(t, a, `SELECT COUNT(*) FROM (SELECT DISTINCT kind, subject FROM aepgate_ledger WHERE delivery_id = ?)`, d.GUID)
		if rows != distinct {
			t.Errorf("%s.%s %s: %d ledger rows for %d decisions: judged more than once", d.Event, d.Action, d.GUID, rows, distinct)
		}
	}
	if len(asked) != len(missed) {
		t.Errorf("%d events redelivered, want the %d missed", len(asked), len(missed))
	}
	for _, d := range missed {
		if n := s.count(t, a, `SELECT COUNT(*) FROM aepgate_ledger WHERE kind LIKE 'command:%' AND delivery_id = ?`, d.GUID); d.Event == "issue_comment" && n != 1 {
			t.Errorf("the HOLD's comment has %d command rows in the ledger, want 1", n)
		}
	}
	want := len(missed)
	appkit.WaitFor(t, 10*time.Second, "the redelivery's metrics", func() bool {
		m := metricsText(t, base)
		return strings.Contains(m, `aepgate_redelivery_deliveries_total{outcome="requested"} `+strconv.Itoa(want)) &&
			strings.Contains(m, `aepgate_redelivery_deliveries_total{outcome="recovered"} `+strconv.Itoa(want))
	})
}

// stillMissed checks that with the redelivery off nothing brings the
// missed deliveries back.
func (s *redeliverScene) stillMissed(t *testing.T, a *app.App, missed []ghfake.Delivery) {
	t.Helper()
	time.Sleep(2 * time.Second)
	appkit.Drained(t, s.f, a)
	if got := s.gates(s.prA); got != "success" {
		t.Errorf("pull request A's gates %s with the redelivery off: the HOLD came back another way", got)
	}
	if got := s.gates(s.prB); got != "action_required" {
		t.Errorf("pull request B's gates %s with the redelivery off: the answer came back another way", got)
	}
	for _, d := range s.f.Deliveries() {
		if d.Redelivery {
			t.Errorf("%s.%s %s redelivered with the redelivery off", d.Event, d.Action, d.GUID)
		}
	}
	for _, d := range missed {
		if n := s.count(t, a, `SELECT COUNT(*) FROM aepgate_delivery WHERE delivery_id = ?`, d.GUID); n != 0 {
			t.Errorf("%s.%s %s recorded with the redelivery off", d.Event, d.Action, d.GUID)
		}
	}
}

func (s *redeliverScene) count(t *testing.T, a *app.App, q string, args ...any) int {
	t.Helper()
	var n int
	if err := a.Store().SQL.QueryRowContext(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func metricsText(t *testing.T, base string) string {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// serveUntilStopped runs an App on ln until stop is called (or the test
// ends).
func serveUntilStopped(t *testing.T, o app.Options, ln net.Listener) (*app.App, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	a, err := app.New(ctx, o)
	if err != nil {
		ln.Close()
		cancel()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, ln) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("app run: %v", err)
			}
			a.Close()
		})
	}
	t.Cleanup(stop)
	return a, stop
}
