package app

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// world is the App's end-to-end scene on internal/testkit/ghfake: repository
// acme/app with the App installed, milestone M1 (risk medium) holding
// issue #1 (open, product, depends on #2) and #2 (closed, contract), and
// the pull requests a test adds. Webhooks are not sent by the fake: tests
// deliver their own payloads (naming the fake's installation and pull
// request numbers), so they control exactly which deliveries the App sees.
// Pull requests are known by the test's own label (10, 11, 1000+i), since
// GitHub numbers issues and pull requests from one sequence.
type world struct {
	f      *ghfake.Fake
	repo   *ghfake.Repo
	inst   *ghfake.Installation
	issues map[int]*ghfake.Issue // by number
	prs    map[int]*ghfake.PR    // by label
	heads  map[int]string        // head SHA by label
}

// worldPerms are the permissions the App asks for.
var worldPerms = ghfake.Permissions{"checks": "write", "contents": "read", "issues": "write", "pull_requests": "write", "metadata": "read", "actions": "read"}

func newWorld(t testing.TB) *world {
	t.Helper()
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	ghApp := f.App(testAppID, appKey(t))
	repo := f.CreateRepo("acme/app")
	w := &world{f: f, repo: repo, inst: ghApp.Install("acme", worldPerms, repo),
		issues: map[int]*ghfake.Issue{}, prs: map[int]*ghfake.PR{}, heads: map[int]string{}}
	ms := repo.CreateMilestone("M1", "```yaml\nrisk: medium\ndemonstration: a report is exported\n```")
	if ms.Number() != 1 {
		t.Fatalf("milestone M1 is number %d, want 1", ms.Number())
	}
	w.openIssue(t, 1, "Export reports", contract("medium", "product", 2), ms)
	w.openIssue(t, 2, "Report API", contract("low", "contract"), ms).Close("alice")
	seedDone(f.URL(), 2) // #2 was certified before the App started
	return w
}

// openIssue opens an issue in ms and checks GitHub gave it number want.
func (w *world) openIssue(t testing.TB, want int, title, body string, ms *ghfake.Milestone) *ghfake.Issue {
	t.Helper()
	is := w.repo.OpenIssue("alice", title, body, ghfake.InMilestone(ms))
	if is.Number() != want {
		t.Fatalf("issue %q is #%d, want #%d", title, is.Number(), want)
	}
	w.issues[want] = is
	return is
}

// addPR opens pull request label from its own branch (one commit, so its
// head is its own) with body.
func (w *world) addPR(label int, body string) {
	branch := fmt.Sprintf("pr-%d", label)
	w.repo.Branch(branch, "main")
	w.heads[label] = w.repo.Commit(branch, "work "+branch, map[string]string{branch + ".go": "package x\n"})
	w.prs[label] = w.repo.OpenPR("bob", branch, "main", "Work "+branch, body)
}

func (w *world) addPRs(n int) {
	for i := range n {
		w.addPR(1000+i, "Work-unit: #1")
	}
}

// payload is a delivery body for acme/app naming the fake's installation.
func (w *world) payload(action string, fields map[string]any) []byte {
	p := map[string]any{"action": action, "installation": map[string]any{"id": w.inst.ID},
		"repository": map[string]any{"name": "app", "full_name": "acme/app", "owner": map[string]any{"login": "acme"}}}
	for k, v := range fields {
		p[k] = v
	}
	b, _ := json.Marshal(p)
	return b
}

// prEvent is a pull_request payload for pull request label; body is what
// the payload claims the pull request says (it may be stale).
func (w *world) prEvent(action string, label int, body string) []byte {
	return w.payload(action, map[string]any{"pull_request": map[string]any{"number": w.prs[label].Number(), "body": body}})
}

// issueEvent is an issues payload for issue n.
func (w *world) issueEvent(action string, n int) []byte {
	return w.payload(action, map[string]any{"issue": map[string]any{"number": n}})
}

// run returns the newest check run named name on pull request label's
// head, or nil.
func (w *world) run(name string, label int) *ghfake.CheckRun {
	var found *ghfake.CheckRun
	for _, r := range w.repo.CheckRuns(w.heads[label]) {
		if r.Name == name {
			found = &r
		}
	}
	return found
}

// duplicates lists name@head pairs holding more than one check run, over
// every pull request head: a run created twice is a duplicated write.
func (w *world) duplicates() []string {
	var out []string
	for label, head := range w.heads {
		n := map[string]int{}
		for _, r := range w.repo.CheckRuns(head) {
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

const tokenRoute = "POST /app/installations/{installation_id}/access_tokens"

// counts returns the GitHub reads (GETs and GraphQL queries), writes
// (everything else but minting installation tokens) and injected faults
// so far, counting every request that arrived, faulted or not.
func (w *world) counts() (reads, writes, faults int) {
	for _, r := range w.f.Requests() {
		switch {
		case r.Pattern == "GET /meta":
			// The start-up read of GitHub's hook ranges, no evaluation's.
		case !r.Write || r.Pattern == "POST /graphql":
			reads++
		case r.Pattern != tokenRoute:
			writes++
		}
		if r.Fault != "" {
			faults++
		}
	}
	return reads, writes, faults
}

// writeLog lists the counted writes, for failure messages.
func (w *world) writeLog() string {
	s := ""
	for _, r := range w.f.Requests() {
		if r.Write && r.Pattern != "POST /graphql" && r.Pattern != tokenRoute {
			s += "  " + r.String() + "\n"
		}
	}
	return s
}

// slowGraphQL delays every GraphQL answer by d (0 removes every fault).
func (w *world) slowGraphQL(d time.Duration) {
	w.f.ClearFaults()
	if d > 0 {
		w.f.InjectFault("POST /graphql", ghfake.Fault{Kind: ghfake.FaultLatency, Delay: d})
	}
}

// allJudged reports whether each of pull requests 1000…1000+n−1 carries a
// successful work-unit run.
func (w *world) allJudged(n int) func() bool {
	return func() bool {
		for i := range n {
			if r := w.run(checks.NameWorkUnit, 1000+i); r == nil || r.Conclusion != "success" {
				return false
			}
		}
		return true
	}
}

// pipelineChecks is the check list of the world-scale reliability tests
// (addPRs): their hundreds of pull requests all attempt unit #1, so every
// gates evaluation would read all their conversations (ten pages of
// mentions), which is not what these tests measure; they drive the
// pipeline with aepgate/work-unit alone, one write per pull request
// (aepgate/config would add its no-auditors warning to each). The gates
// and config checks have their own end-to-end tests.
func pipelineChecks() []verdict.Check {
	for _, c := range verdict.DefaultChecks() {
		if c.Name == checks.NameWorkUnit {
			// Without its lanes: the WIP limits would refuse all but one.
			return []verdict.Check{{Name: c.Name, Eval: c.Eval}}
		}
	}
	panic("no " + checks.NameWorkUnit + " check")
}
