package appkit

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/board"
	"github.com/aepgate/aepgate/app/increment"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/incrementrules"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-github/v62/github"
)

// StageIs waits until the kept board shows milestone M1 at stage, judged by
// the App, and returns that increment.
func (w *IncrementWorld) StageIs(t *testing.T, stage incrementrules.Stage) boardview.Increment {
	t.Helper()
	var inc boardview.Increment
	WaitFor(t, 10*time.Second, "the kept board at stage "+string(stage), func() bool {
		kept, ok, err := w.App.Board(context.Background(), "acme/widgets")
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range kept.Increments {
			if ok && i.Number == w.MS.Number() {
				inc = i
			}
		}
		return inc.Stage == stage && inc.Judged
	})
	return inc
}

// BoardReads runs one board update and wants one GitHub read (the board
// query) and no write: the stages come from the store.
func (w *IncrementWorld) BoardReads(t *testing.T) {
	t.Helper()
	w.Quiet(t)
	ctx := context.Background()
	in, err := w.App.GitHub().Installation(w.Inst.ID)
	if err != nil {
		t.Fatal(err)
	}
	login, err := w.App.GitHub().AppLogin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.App.Boards().Keep(ctx, in, "acme", "widgets", time.Now(), board.AuthoredBy(login), Logger(t)); err != nil {
		t.Fatal(err)
	}
	w.F.ResetLog()
	if err := w.App.Boards().Keep(ctx, in, "acme", "widgets", time.Now(), board.AuthoredBy(login), Logger(t)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]int{"POST /graphql": 1}, w.F.Stats().ByRoute); diff != "" {
		t.Errorf("API calls of a board update with a complete increment (-want +got):\n%s", diff)
	}
}

// AnswerOf is how the App answered control-issue comment c: its reactions
// and the bodies of the App's replies to it.
func (w *IncrementWorld) AnswerOf(t *testing.T, c *ghfake.Comment) (reactions, replies []string) {
	t.Helper()
	w.Quiet(t)
	for _, cv := range w.Control.Comments() {
		if cv.ID == c.ID() {
			reactions = cv.Reactions
		}
		if strings.HasPrefix(cv.Body, checks.ReplyMarker(c.ID())) {
			replies = append(replies, cv.Body)
		}
	}
	return reactions, replies
}

// EditedAccept posts the owner's acceptance of sha and edits it, both
// unseen by the App (their deliveries lost): the sweep finds it edited.
func (w *IncrementWorld) EditedAccept(t *testing.T, sha string) *ghfake.Comment {
	t.Helper()
	var c *ghfake.Comment
	w.Lose(t, func() {
		c = w.Control.Comment("olivia", "/aep accept 1 "+sha+" (draft)")
		w.F.Advance(2 * time.Second)
		c.Edit("olivia", "/aep accept 1 "+sha)
	})
	w.Sweep(t)
	return c
}

// CandidateNamed waits until the App has judged the last story's closure
// and named sha the integrated candidate (aepgate/increment on it), so
// that an acceptance posted next is judged against it.
func (w *IncrementWorld) CandidateNamed(t *testing.T, sha string) {
	t.Helper()
	WaitFor(t, DrainBound, "aepgate/increment on the candidate", func() bool { return w.Increment(t, sha) != nil })
}

// IncrementYAML: olivia owns the repository, carl coordinates, ci is the
// readback workflow.
const IncrementYAML = "version: 1\nowners: [olivia]\ncoordinators: [carl]\nrequired_workflows:\n  readback: [ci]\n"

// IncrementWorld is a ghfake world with a control issue and milestone M1
// of three medium-risk stories, whose App may read workflow runs and
// deployments; the readback's audit seam passes every merged head.
type IncrementWorld struct {
	*Live
	MS      *ghfake.Milestone
	Stories []*ghfake.Issue
	Control *ghfake.Issue
	Merges  int
}

// NewIncrementWorldWith is newIncrementWorldOn with opts applied to the
// App's options (nil: none).
func NewIncrementWorldWith(t *testing.T, yaml, description string, rules *incrementrules.Rules, opts func(*app.Options), risks ...string) *IncrementWorld {
	t.Helper()
	return NewIncrementWorldFiles(t, map[string]string{".github/aepgate.yml": yaml}, nil, description, rules, opts, risks...)
}

// NewIncrementWorldFiles is NewIncrementWorldWith with files on main and
// the installation's permissions besides the world's own (extra).
func NewIncrementWorldFiles(t *testing.T, files map[string]string, extra ghfake.Permissions, description string, rules *incrementrules.Rules, opts func(*app.Options), risks ...string) *IncrementWorld {
	t.Helper()
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	ghApp := f.App(AppID, Key(t))
	repo := f.CreateRepo("acme/widgets")
	perms := ghfake.Permissions{"checks": "write", "contents": "read", "issues": "write", "pull_requests": "write",
		"metadata": "read", "actions": "read", "deployments": "write"}
	maps.Copy(perms, extra)
	inst := ghApp.Install("acme", perms, repo)
	repo.Commit("main", "config", files)
	for login, role := range map[string]string{"olivia": "admin", "carl": "write", "mallory": "write"} {
		repo.Grant(login, role)
	}
	o := Options(t, nil, "")
	o.GitHubURL = f.URL()
	o.Seams.Readback = app.ReadbackSeams{Audited: PassAudit}
	o.Seams.IncrementRules = rules
	if opts != nil {
		opts(&o)
	}
	a, base := Start(t, o)
	f.SendWebhooks(base+"/webhook", Secret, ghApp)
	w := &IncrementWorld{Live: &Live{F: f, Repo: repo, App: a, Base: base, Inst: inst, GHApp: ghApp}}
	w.Control = repo.OpenIssue("olivia", "aepgate control", "", ghfake.WithLabels(gh.ControlLabel))
	w.MS = repo.CreateMilestone("M1", description)
	for i, risk := range append(risks, "medium", "medium", "medium")[:3] {
		w.Stories = append(w.Stories, repo.OpenIssue("olivia", fmt.Sprintf("Story %d", i+1), Contract(risk, "product"), ghfake.InMilestone(w.MS)))
	}
	return w
}

// Merge merges an attempt of story i (its gates judged, its ci green)
// and returns the merge commit.
func (w *IncrementWorld) Merge(t *testing.T, i int) string {
	t.Helper()
	w.Merges++
	branch := fmt.Sprintf("story-%d-%d", i, w.Merges)
	w.Repo.Branch(branch, "main")
	w.Repo.Commit(branch, "work", map[string]string{fmt.Sprintf("s%d_%d.go", i, w.Merges): "package x\n"})
	pr := w.Repo.OpenPR("bob", branch, "main", "Story", fmt.Sprintf("Work-unit: #%d", w.Stories[i].Number()))
	WaitFor(t, 10*time.Second, "aepgate/gates on the head", func() bool { return NewestRunOn(w.Repo, pr.Head(), checks.NameGates) != nil })
	w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: pr.Head(), Branch: branch, Event: "pull_request"})
	return pr.Merge(ghfake.MergeCommit)
}

// Readback runs ci on main at merge and waits for aepgate/readback's
// success there (and the certificate the App then writes).
func (w *IncrementWorld) Readback(t *testing.T, merge string) int64 {
	t.Helper()
	run := w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: merge, Branch: "main", Event: "push"})
	WaitFor(t, 10*time.Second, "aepgate/readback on "+merge, func() bool { return ConclusionOf(w.Repo, merge, checks.NameReadback) == "success" })
	w.Quiet(t)
	return run.ID()
}

// Certified merges story i, reads it back and has carl close it.
func (w *IncrementWorld) Certified(t *testing.T, i int) string {
	t.Helper()
	m := w.Merge(t, i)
	w.Readback(t, m)
	w.Stories[i].Close("carl")
	return m
}

// Increment is the newest aepgate/increment on sha (the highest ID, the
// one GitHub shows) once the queue is drained; nil when there is none.
func (w *IncrementWorld) Increment(t *testing.T, sha string) *ghfake.CheckRun {
	t.Helper()
	w.Quiet(t)
	var out *ghfake.CheckRun
	for _, r := range w.Repo.CheckRuns(sha) {
		if r.Name == checks.NameIncrement && (out == nil || r.ID > out.ID) {
			out = &r
		}
	}
	return out
}

// Complete reports whether sha carries a verified increment certificate.
func (w *IncrementWorld) Complete(t *testing.T, sha string) (incrementrules.Certificate, bool) {
	t.Helper()
	r := w.Increment(t, sha)
	if r == nil {
		return incrementrules.Certificate{}, false
	}
	cert, rs := checks.VerifyIncrementRun(checks.Run{Name: r.Name, HeadSHA: sha, ExternalID: r.ExternalID, Status: checks.Status(r.Status),
		Conclusion: checks.Conclusion(r.Conclusion), Title: r.Title, Summary: r.Summary})
	return cert, len(rs) == 0
}

// IncrementRulesWithout is protocol/incrementrules's DefaultRules with the named rule out.
func IncrementRulesWithout(name string) *incrementrules.Rules {
	r := incrementrules.DefaultRules()
	r.Checks = slices.DeleteFunc(r.Checks, func(c incrementrules.Rule) bool { return c.Name == name })
	r.Owner = slices.DeleteFunc(r.Owner, func(a closurerules.AuthorityRule) bool { return a.Name == name })
	r.Demo = slices.DeleteFunc(r.Demo, func(d incrementrules.DemoRule) bool { return d.Name == name })
	r.Accept = slices.DeleteFunc(r.Accept, func(a incrementrules.AcceptRule) bool { return a.Name == name })
	r.Comment = slices.DeleteFunc(r.Comment, func(c incrementrules.CommentRule) bool { return c.Name == name })
	r.Withdraw = slices.DeleteFunc(r.Withdraw, func(w incrementrules.WithdrawRule) bool { return w.Name == name })
	return &r
}

// CertifiedAll merges, reads back and closes the three stories and
// returns the last merge, the integrated candidate.
func (w *IncrementWorld) CertifiedAll(t *testing.T) string {
	t.Helper()
	w.Certified(t, 0)
	w.Certified(t, 1)
	return w.Certified(t, 2)
}

// Conclusion is the conclusion of the aepgate/increment GitHub shows on
// sha ("" when none, or in progress).
func (w *IncrementWorld) Conclusion(t *testing.T, sha string) string {
	t.Helper()
	if r := w.Increment(t, sha); r != nil {
		return r.Conclusion
	}
	return ""
}

// ClosedComments are the App's comments on the control issue flagging a
// milestone closed before it was complete.
func (w *IncrementWorld) ClosedComments(t *testing.T) int {
	t.Helper()
	w.Quiet(t)
	n := 0
	for _, c := range w.Control.Comments() {
		if strings.HasPrefix(c.Body, increment.ClosedMarker) {
			n++
		}
	}
	return n
}

// CertificateRun is the App's increment certificate run on sha (its
// external ID is the certificate's), nil when there is none.
func (w *IncrementWorld) CertificateRun(t *testing.T, sha string) *ghfake.CheckRun {
	t.Helper()
	w.Quiet(t)
	for _, r := range w.Repo.CheckRuns(sha) {
		if r.Name == checks.NameIncrement && strings.HasPrefix(r.ExternalID, checks.CertificateExternalIDPrefix) {
			return &r
		}
	}
	return nil
}

// DeployState requests a production deployment of sha and returns its
// answer.
func (w *IncrementWorld) DeployState(t *testing.T, sha string) ghfake.DeploymentReview {
	t.Helper()
	run := w.Repo.StartWorkflowRun(ghfake.RunOptions{Name: "deploy", SHA: sha, Branch: "main"})
	run.RequestDeployment("production")
	return Answered(t, run)
}

// LedgerRows counts the ledger's rows of kind.
func (w *IncrementWorld) LedgerRows(t *testing.T, kind string) int {
	t.Helper()
	var n int
	if err := w.App.Store().SQL.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM aepgate_ledger WHERE kind = ?`, kind).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Sweep runs the reconcile sweep once, as the periodic job does, and
// waits for what it queued.
func (w *IncrementWorld) Sweep(t *testing.T) {
	t.Helper()
	if err := w.App.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.Quiet(t)
}

// BoardShows reports whether the repository's board issue holds want.
func (w *IncrementWorld) BoardShows(t *testing.T, want string) bool {
	t.Helper()
	is, _, err := w.F.Client(w.Inst.Token()).Issues.ListByRepo(context.Background(), "acme", "widgets",
		&github.IssueListByRepoOptions{Labels: []string{checks.BoardLabel}, State: "all"})
	if err != nil {
		t.Fatal(err)
	}
	return len(is) == 1 && strings.Contains(is[0].GetBody(), want)
}

// Lose runs act with the fake's webhooks collected, not sent: the App
// never hears of what act does.
func (w *IncrementWorld) Lose(t *testing.T, act func()) {
	t.Helper()
	w.Quiet(t)
	w.F.CollectWebhooks(Secret, w.GHApp)
	act()
	w.F.Deliveries()
	w.F.SendWebhooks(w.Base+"/webhook", Secret, w.GHApp)
}

// CostSince logs the requests made since before, by route: what a test
// reports as an event's API cost.
func (w *IncrementWorld) CostSince(t *testing.T, what string, before ghfake.Stats) {
	t.Helper()
	now := w.F.Stats()
	var parts []string
	for route, n := range now.ByRoute {
		if d := n - before.ByRoute[route]; d > 0 {
			parts = append(parts, fmt.Sprintf("%s ×%d", route, d))
		}
	}
	slices.Sort(parts)
	t.Logf("%s: %s", what, strings.Join(parts, ", "))
}

// HighRisk declares milestone M1 high risk: it needs the owner's
// acceptance.
const HighRisk = "```yaml\nrisk: high\n```\n"
