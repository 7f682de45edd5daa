package appkit

import (
	"encoding/json"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// MergePerms are LivePerms with what merging takes (app/manifest's
// "/aep merge"): the merge queue and contents (auto-merge, a direct
// merge) at write.
func MergePerms() ghfake.Permissions {
	p := maps.Clone(LivePerms)
	p["merge_queues"], p["contents"] = "write", "write"
	return p
}

// MergeWorld is an AuditWorld (a low-risk unit, so no audit is required;
// olivia the owner) whose installation may merge, and whose main
// branch takes merges through a merge queue when queue is set and by
// auto-merge otherwise (a required check "ci/build" the test completes
// keeps GitHub waiting).
type MergeWorld struct {
	*AuditWorld
}

// NewMergeWorld builds the MergeWorld with config on main and the App's
// options changed by edit (nil: unchanged).
func NewMergeWorld(t *testing.T, config string, queue bool, edit func(*app.Options)) *MergeWorld {
	t.Helper()
	w := NewLivePerms(t, true, edit, MergePerms())
	w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": config})
	for _, u := range []string{"olivia", "carol", "dave", "bob", "mallory"} {
		w.Repo.Grant(u, "write")
	}
	w.Repo.SetBranchRules("main", ghfake.BranchRules{MergeQueue: queue, RequiredChecks: []string{checks.NameMerge, "ci/build"}})
	w.Repo.AllowAutoMerge(true)
	ms := w.Repo.CreateMilestone("M", "")
	unit := w.Repo.OpenIssue("alice", "Export", Contract("low", "product"), ghfake.InMilestone(ms))
	w.Repo.Branch("work", "main")
	w.Repo.CommitBy("bob", "work", "export", map[string]string{"work.go": "package work\n"})
	pr := w.Repo.OpenPR("bob", "work", "main", "Export", "Work-unit: #"+strconv.Itoa(unit.Number()))
	return &MergeWorld{AuditWorld: &AuditWorld{Live: w, Unit: unit, PR: pr}}
}

// Green has bob write the worker report for the head into the pull
// request's body, completes ci/build on the head when ci, and waits until
// aepgate/merge on it is success.
func (m *MergeWorld) Green(t *testing.T, ci bool) {
	t.Helper()
	head := m.PR.Head()
	if ci {
		m.Repo.AddCheckRun(CIAppID, head, "ci/build", "completed", "success")
	}
	m.PR.Edit("bob", "Work-unit: #"+strconv.Itoa(m.Unit.Number())+"\n\n"+WorkerReport(m.Unit.Number(), m.PR.Number(), head))
	WaitFor(t, 20*time.Second, "aepgate/merge success", func() bool {
		return ConclusionOf(m.Repo, m.PR.Head(), checks.NameMerge) == "success"
	})
	m.Quiet(t)
}

// Say has login comment body on the pull request and waits until the App
// is quiet.
func (m *MergeWorld) Say(t *testing.T, login, body string) *ghfake.Comment {
	t.Helper()
	c := m.PR.Comment(login, body)
	m.Quiet(t)
	return c
}

// MergeReplies are the App's merge replies on the pull request (their
// hidden mark first), oldest first.
func (m *MergeWorld) MergeReplies() []string {
	var out []string
	for _, c := range m.PR.Comments() {
		if strings.HasPrefix(c.Body, "<!-- aepgate:merge ") {
			out = append(out, c.Body)
		}
	}
	return out
}

// Queue is main's merge queue.
func (m *MergeWorld) Queue() []ghfake.QueueEntry { return m.Repo.MergeQueue("main") }

// CIAppID is the App that writes the CI check "ci/build" (GitHub Actions').
const CIAppID = 15368

// RedeliverComment sends the issue_comment delivery of comment id again,
// under a fresh delivery ID, and waits until the App is quiet.
func (m *MergeWorld) RedeliverComment(t *testing.T, id int64) {
	t.Helper()
	for _, d := range m.F.Deliveries() {
		var p struct {
			Comment struct {
				ID int64 `json:"id"`
			} `json:"comment"`
		}
		if d.Event != "issue_comment" || json.Unmarshal(d.Payload, &p) != nil || p.Comment.ID != id {
			continue
		}
		if got := Deliver(t, m.Base, d.Event, fmt.Sprintf("re-%d", time.Now().UnixNano()), CopyPayload(t, d.Payload)); got != 202 {
			t.Fatalf("redelivery: %d", got)
		}
		m.Quiet(t)
		return
	}
	t.Fatalf("no delivery of comment %d", id)
}
