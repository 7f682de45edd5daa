package appkit

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// World is the App's end-to-end scene on internal/testkit/ghfake: repository
// acme/app with the App installed, milestone M1 (risk medium) holding
// issue #1 (open, product, depends on #2) and #2 (closed, contract), and
// the pull requests a test adds. Webhooks are not sent by the fake: tests
// deliver their own payloads (naming the fake's installation and pull
// request numbers), so they control exactly which deliveries the App sees.
// Pull requests are known by the test's own label (10, 11, 1000+i), since
// GitHub numbers issues and pull requests from one sequence.
type World struct {
	F      *ghfake.Fake
	Repo   *ghfake.Repo
	Inst   *ghfake.Installation
	Issues map[int]*ghfake.Issue // by number
	PRs    map[int]*ghfake.PR    // by label
	Heads  map[int]string        // head SHA by label
}

// WorldPerms are the permissions the App asks for.
var WorldPerms = ghfake.Permissions{"checks": "write", "contents": "read", "issues": "write", "pull_requests": "write", "metadata": "read", "actions": "read"}

// NewWorld builds the World; its App is started by the test (Start).
func NewWorld(t testing.TB) *World {
	t.Helper()
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	ghApp := f.App(AppID, Key(t))
	repo := f.CreateRepo("acme/app")
	w := &World{F: f, Repo: repo, Inst: ghApp.Install("acme", WorldPerms, repo),
		Issues: map[int]*ghfake.Issue{}, PRs: map[int]*ghfake.PR{}, Heads: map[int]string{}}
	ms := repo.CreateMilestone("M1", "```yaml\nrisk: medium\ndemonstration: a report is exported\n```")
	if ms.Number() != 1 {
		t.Fatalf("milestone M1 is number %d, want 1", ms.Number())
	}
	w.OpenIssue(t, 1, "Export reports", Contract("medium", "product", 2), ms)
	w.OpenIssue(t, 2, "Report API", Contract("low", "contract"), ms).Close("alice")
	SeedDone(f.URL(), 2) // #2 was certified before the App started
	return w
}

// OpenIssue opens an issue in ms and checks GitHub gave it number want.
func (w *World) OpenIssue(t testing.TB, want int, title, body string, ms *ghfake.Milestone) *ghfake.Issue {
	t.Helper()
	is := w.Repo.OpenIssue("alice", title, body, ghfake.InMilestone(ms))
	if is.Number() != want {
		t.Fatalf("issue %q is #%d, want #%d", title, is.Number(), want)
	}
	w.Issues[want] = is
	return is
}

// AddPR opens pull request label from its own branch (one commit, so its
// head is its own) with body.
func (w *World) AddPR(label int, body string) {
	branch := fmt.Sprintf("pr-%d", label)
	w.Repo.Branch(branch, "main")
	w.Heads[label] = w.Repo.Commit(branch, "work "+branch, map[string]string{branch + ".go": "package x\n"})
	w.PRs[label] = w.Repo.OpenPR("bob", branch, "main", "Work "+branch, body)
}

// AddPRs opens pull requests 1000…1000+n−1, each attempting unit #1.
func (w *World) AddPRs(n int) {
	for i := range n {
		w.AddPR(1000+i, "Work-unit: #1")
	}
}

// Payload is a delivery body for acme/app naming the fake's installation.
func (w *World) Payload(action string, fields map[string]any) []byte {
	p := map[string]any{"action": action, "installation": map[string]any{"id": w.Inst.ID},
		"repository": map[string]any{"name": "app", "full_name": "acme/app", "owner": map[string]any{"login": "acme"}}}
	for k, v := range fields {
		p[k] = v
	}
	b, _ := json.Marshal(p)
	return b
}

// PREvent is a pull_request payload for pull request label; body is what
// the payload claims the pull request says (it may be stale).
func (w *World) PREvent(action string, label int, body string) []byte {
	return w.Payload(action, map[string]any{"pull_request": map[string]any{"number": w.PRs[label].Number(), "body": body}})
}

// IssueEvent is an issues payload for issue n.
func (w *World) IssueEvent(action string, n int) []byte {
	return w.Payload(action, map[string]any{"issue": map[string]any{"number": n}})
}

// Run returns the newest check run named name on pull request label's
// head, or nil.
func (w *World) Run(name string, label int) *ghfake.CheckRun {
	var found *ghfake.CheckRun
	for _, r := range w.Repo.CheckRuns(w.Heads[label]) {
		if r.Name == name {
			found = &r
		}
	}
	return found
}

// Duplicates lists name@head pairs holding more than one check run, over
// every pull request head: a run created twice is a duplicated write.
func (w *World) Duplicates() []string {
	var out []string
	for label, head := range w.Heads {
		n := map[string]int{}
		for _, r := range w.Repo.CheckRuns(head) {
			n[r.Name]++
		}
		for name, k := range n {
			if k > 1 {
				out = append(out, fmt.Sprintf("%s@PR %d ×%d", name, label, k))
			}
		}
	}
	return out
}

// TokenRoute is the route minting installation tokens.
const TokenRoute = "POST /app/installations/{installation_id}/access_tokens"

// Counts returns the GitHub reads (GETs and GraphQL queries), writes
// (everything else but minting installation tokens) and injected faults
// so far, counting every request that arrived, faulted or not.
func (w *World) Counts() (reads, writes, faults int) {
	for _, r := range w.F.Requests() {
		switch {
		case r.Pattern == "GET /meta":
			// The start-up read of GitHub's hook ranges, no evaluation's.
		case !r.Write || r.Pattern == "POST /graphql":
			reads++
		case r.Pattern != TokenRoute:
			writes++
		}
		if r.Fault != "" {
			faults++
		}
	}
	return reads, writes, faults
}

// WriteLog lists the counted writes, for failure messages.
func (w *World) WriteLog() string {
	s := ""
	for _, r := range w.F.Requests() {
		if r.Write && r.Pattern != "POST /graphql" && r.Pattern != TokenRoute {
			s += "  " + r.String() + "\n"
		}
	}
	return s
}

// SlowGraphQL delays every GraphQL answer by d (0 removes every fault).
func (w *World) SlowGraphQL(d time.Duration) {
	w.F.ClearFaults()
	if d > 0 {
		w.F.InjectFault("POST /graphql", ghfake.Fault{Kind: ghfake.FaultLatency, Delay: d})
	}
}

// AllJudged reports whether each of pull requests 1000…1000+n−1 carries a
// successful work-unit run.
func (w *World) AllJudged(n int) func() bool {
	return func() bool {
		for i := range n {
			if r := w.Run(checks.NameWorkUnit, 1000+i); r == nil || r.Conclusion != "success" {
				return false
			}
		}
		return true
	}
}

// PipelineChecks is the check list of the world-scale reliability tests
// (addPRs): their hundreds of pull requests all attempt unit #1, so every
// gates evaluation would read all their conversations (ten pages of
// mentions), which is not what these tests measure; they drive the
// pipeline with aepgate/work-unit alone, one write per pull request
// (aepgate/config would add its no-auditors warning to each). The gates
// and config checks have their own end-to-end tests.
func PipelineChecks() []verdict.Check {
	for _, c := range verdict.DefaultChecks() {
		if c.Name == checks.NameWorkUnit {
			// Without its lanes: the WIP limits would refuse all but one.
			return []verdict.Check{{Name: c.Name, Eval: c.Eval}}
		}
	}
	panic("no " + checks.NameWorkUnit + " check")
}
