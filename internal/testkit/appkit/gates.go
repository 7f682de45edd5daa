package appkit

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-github/v62/github"
)

// ReadsOfOneEvaluation is how many GitHub reads one owner's recheck costs.
func (g *GatesWorld) ReadsOfOneEvaluation(t *testing.T) int {
	t.Helper()
	g.Settle(t)
	g.F.ResetLog()
	g.Settle(t)
	return g.F.Stats().Reads
}

// SendAll sends the collected deliveries to the App, 16 at a time; one
// not acknowledged is redelivered (up to 3 times, as an operator would
// from the App's settings), and fails the test after that.
func (g *GatesWorld) SendAll(t *testing.T, ds []ghfake.Delivery) {
	t.Helper()
	sem := make(chan struct{}, 16)
	var wg sync.WaitGroup
	for _, d := range ds {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			status := 0
			for range 3 {
				if status = g.SendOne(t, d); status < 300 {
					return
				}
			}
			t.Errorf("delivery %s answered %d three times", d.GUID, status)
		})
	}
	wg.Wait()
}

// SendOne sends d and returns the status (0: no answer).
func (g *GatesWorld) SendOne(t *testing.T, d ghfake.Delivery) int {
	req, err := d.Request(g.Base + "/webhook")
	if err != nil {
		t.Error(err)
		return 0
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Logf("deliver %s: %v", d.GUID, err)
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// WaitIdle waits until no delivery or rejudge job waits or runs. What
// it waits for is 500 delivery jobs, three evaluations of a 500-comment
// pull request, the 5 s pause the burst's rejudge waits for, and its
// evaluations: on a loaded 2-core machine that took 30 to 50 s, so the
// bound is 2 minutes (it only ends a test that would hang).
func (g *GatesWorld) WaitIdle(t *testing.T) {
	t.Helper()
	kinds := []string{queue.Delivery{}.Kind(), queue.Rejudge{}.Kind()}
	WaitFor(t, 2*time.Minute, "the queue to drain", func() bool {
		var n int
		err := g.App.Store().SQL.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM river_job WHERE kind IN ('`+strings.Join(kinds, "','")+`')
			AND state NOT IN ('completed', 'cancelled', 'discarded')`).Scan(&n)
		return err == nil && n == 0
	})
}

// EditedFirst has olivia post a comment that mallory edits into
// '/aep resume' before the App hears of either, then sends the two
// deliveries (created, edited) in the order order gives, each judged
// before the next is sent.
func (g *GatesWorld) EditedFirst(t *testing.T, order func([]ghfake.Delivery) []ghfake.Delivery) *ghfake.Comment {
	t.Helper()
	g.F.CollectWebhooks(Secret, g.GHApp)
	before := len(g.F.Deliveries())
	c := g.PR.Comment("olivia", "Thanks, looking at it.")
	EditAs("mallory", "/aep resume")(t, g, c)
	held := g.F.Deliveries()[before:]
	if len(held) != 2 {
		t.Fatalf("%d deliveries for a comment and its edit, want 2", len(held))
	}
	g.F.SendWebhooks(g.Base+"/webhook", Secret, g.GHApp)
	for _, d := range order(held) {
		req, err := d.Request(g.Base + "/webhook")
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode >= 300 {
			t.Fatalf("delivery %s (%s.%s) answered %d", d.GUID, d.Event, d.Action, resp.StatusCode)
		}
		g.Quiet(t)
	}
	return c
}

// ConfigConclusion is aepgate/config's conclusion on the pull request's
// head once its first evaluation is done: "valid" when the App wrote none (a
// valid config without warnings needs no run).
func (g *GatesWorld) ConfigConclusion(t *testing.T) (string, string) {
	t.Helper()
	WaitFor(t, 10*time.Second, "aepgate/gates", func() bool { return g.Gates() != nil })
	g.Quiet(t)
	run := NewestRunOn(g.Repo, g.PR.Head(), checks.NameConfig)
	if run == nil {
		return "valid", ""
	}
	return run.Conclusion, run.Summary
}

// BaseReads are the statuses of the reads of the base policy so far.
func (g *GatesWorld) BaseReads() []int {
	var out []int
	for _, r := range g.F.Requests() {
		if r.Method == http.MethodGet && strings.HasSuffix(r.Path, "/repos/acme/.github/contents/aepgate.yml") {
			out = append(out, r.Status)
		}
	}
	return out
}

// WaitOn waits until pull request pr's gates check concludes want.
func (g *GatesWorld) WaitOn(t *testing.T, pr *ghfake.PR, want string) {
	t.Helper()
	WaitFor(t, 20*time.Second, fmt.Sprintf("aepgate/gates %s on #%d", want, pr.Number()), func() bool {
		return ConclusionOf(g.Repo, pr.Head(), checks.NameGates) == want
	})
}

// GatesConfig makes olivia the owner and cody a coordinator.
const GatesConfig = "version: 1\nowners: [olivia]\ncoordinators: [cody]\n"

// GatesWorld is a ghfake world whose default branch names olivia owner and
// cody coordinator, both with write access, and mallory a writer who is
// neither; plus one unit with an open pull request.
type GatesWorld struct {
	*Live
	Unit *ghfake.Issue
	PR   *ghfake.PR
	GH   *github.Client
}

// NewGatesWorld is NewGatesWorldOpts with the App's own options.
func NewGatesWorld(t *testing.T) *GatesWorld { return NewGatesWorldOpts(t, nil) }

// NewGatesWorldOpts is NewGatesWorld with the App's options changed by
// edit (nil: unchanged).
func NewGatesWorldOpts(t *testing.T, edit func(*app.Options)) *GatesWorld {
	t.Helper()
	w := NewLiveOpts(t, true, edit)
	w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": GatesConfig})
	w.Repo.Grant("olivia", "admin")
	w.Repo.Grant("cody", "write")
	w.Repo.Grant("mallory", "write")
	g := &GatesWorld{Live: w, GH: w.F.Client(w.Inst.Token())}
	g.Unit, g.PR = g.UnitAndPR("gates")
	g.WaitGates(t, "success")
	return g
}

// UnitAndPR opens a milestone with one product unit and a pull request
// naming it, on branch name.
func (g *GatesWorld) UnitAndPR(name string) (*ghfake.Issue, *ghfake.PR) {
	ms := g.Repo.CreateMilestone("M-"+name, "")
	u := g.Repo.OpenIssue("alice", "Unit "+name, Contract("low", "product"), ghfake.InMilestone(ms))
	g.Repo.Branch(name, "main")
	g.Repo.Commit(name, "work", map[string]string{name + ".go": "package x\n"})
	return u, g.Repo.OpenPR("bob", name, "main", "Work "+name, "Work-unit: #"+strconv.Itoa(u.Number()))
}

// Gates is the newest aepgate/gates run on the pull request's head.
func (g *GatesWorld) Gates() *ghfake.CheckRun {
	return NewestRunOn(g.Repo, g.PR.Head(), checks.NameGates)
}

// WaitGates waits until the gates check concludes want.
func (g *GatesWorld) WaitGates(t *testing.T, want string) *ghfake.CheckRun {
	t.Helper()
	WaitFor(t, 10*time.Second, "aepgate/gates "+want, func() bool { r := g.Gates(); return r != nil && r.Conclusion == want })
	return g.Gates()
}

// Reactions are the contents of the reactions on comment id, read from
// the fake's state (not its API, so polling adds nothing to its request log).
func (g *GatesWorld) Reactions(t *testing.T, id int64) []string {
	t.Helper()
	c, ok := g.Repo.CommentByID(id)
	if !ok {
		t.Fatalf("no comment %d", id)
	}
	return c.Reactions
}

// WaitReaction waits for a reaction on comment id, then for the App's
// queue to drain, and returns the reactions. The job that reacted writes
// the rest of its answer (a 👎's reply, the answered row) and its
// evaluation's board facts after the reaction, and deliveries sent before
// the comment may run beside it: once the queue holds nothing to run, all
// of that is done.
func (g *GatesWorld) WaitReaction(t *testing.T, id int64) []string {
	t.Helper()
	WaitFor(t, 10*time.Second, "a reaction", func() bool { return len(g.Reactions(t, id)) > 0 })
	g.Quiet(t)
	return g.Reactions(t, id)
}

// Replies are the App's comments on issue n that answer comment id.
func (g *GatesWorld) Replies(t *testing.T, n int, id int64) []string {
	t.Helper()
	cs, _, err := g.GH.Issues.ListComments(context.Background(), "acme", "widgets", n, &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range cs {
		if strings.HasPrefix(c.GetBody(), "<!-- aepgate:reply:"+strconv.FormatInt(id, 10)+" -->") {
			out = append(out, c.GetBody())
		}
	}
	return out
}

// RedeliverComment sends the issue_comment.created delivery of comment id
// again under a new delivery ID, as GitHub's "Redeliver" with a new GUID.
func (g *GatesWorld) RedeliverComment(t *testing.T, id int64) {
	t.Helper()
	for _, d := range g.F.Deliveries() {
		var p struct {
			Comment struct{ ID int64 } `json:"comment"`
		}
		if d.Event == "issue_comment" && d.Action == "created" && json.Unmarshal(d.Payload, &p) == nil && p.Comment.ID == id {
			// A byte-for-byte copy under a new ID is a replay the edge
			// answers 200 without queueing; a copy with a field no job
			// reads gets past the edge and tests the command-once rule.
			if got := Deliver(t, g.Base, "issue_comment", fmt.Sprintf("again-%d", id), CopyPayload(t, d.Payload)); got != 202 {
				t.Fatalf("redelivery: %d", got)
			}
			return
		}
	}
	t.Fatalf("no delivery of comment %d", id)
}

// Settle makes sure an evaluation has read everything posted so far (the
// owner's /aep recheck is answered only after an evaluation that read the
// whole conversation as GitHub holds it now) and that every job queued
// before it has run (WaitReaction), so nothing still changes what the
// test reads next.
func (g *GatesWorld) Settle(t *testing.T) {
	t.Helper()
	c := g.PR.Comment("olivia", "/aep recheck")
	g.WaitReaction(t, c.ID())
}

// CommandRows counts the ledger's command rows about comment id (one per
// request each time it is judged on its own delivery).
func (g *GatesWorld) CommandRows(t *testing.T, id int64) int {
	t.Helper()
	var n int
	err := g.App.Store().SQL.QueryRowContext(context.Background(),
		`SELECT COUNT(*) FROM aepgate_ledger WHERE kind LIKE 'command:%' AND subject LIKE '%/' || ? || ':%'`, strconv.FormatInt(id, 10)).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// LedgerRows counts the ledger's rows of kind.
func (g *GatesWorld) LedgerRows(t *testing.T, kind string) int {
	t.Helper()
	var n int
	if err := g.App.Store().SQL.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM aepgate_ledger WHERE kind = ?`, kind).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// BoardInboxShows reports whether a board fact of the repository holds
// every one of wants (the facts the board's inbox is built from).
func (g *GatesWorld) BoardInboxShows(t *testing.T, wants ...string) bool {
	t.Helper()
	facts, err := g.App.Store().BoardFacts(context.Background(), "acme/widgets")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range facts {
		if !slices.ContainsFunc(wants, func(w string) bool { return !strings.Contains(string(f), w) }) {
			return true
		}
	}
	return false
}

// ApproveAndLook submits who's approving review at the head and returns
// aepgate/gates' conclusion once the App is done with it.
func (g *GatesWorld) ApproveAndLook(t *testing.T, who string) string {
	t.Helper()
	g.PR.SubmitReview(who, "APPROVED", "")
	g.Quiet(t)
	return g.Gates().Conclusion
}

// EditAs edits the comment through the REST API as login, a writer.
func EditAs(login, body string) func(t *testing.T, g *GatesWorld, c *ghfake.Comment) {
	return func(t *testing.T, g *GatesWorld, c *ghfake.Comment) {
		t.Helper()
		gc := g.F.Client(g.F.UserToken(login))
		if _, _, err := gc.Issues.EditComment(context.Background(), "acme", "widgets", c.ID(), &github.IssueComment{Body: github.String(body)}); err != nil {
			t.Fatal(err)
		}
	}
}
