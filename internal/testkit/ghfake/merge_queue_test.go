package ghfake_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

const (
	enqueueQuery = `mutation($id: ID!, $head: GitObjectID, $jump: Boolean) {
  enqueuePullRequest(input: {pullRequestId: $id, expectedHeadOid: $head, jump: $jump}) {
    mergeQueueEntry { id position state jump enqueuer { login } headCommit { oid } pullRequest { number } mergeQueue { url } }
  }
}`
	dequeueQuery = `mutation($id: ID!) { dequeuePullRequest(input: {id: $id}) { mergeQueueEntry { position pullRequest { number } } } }`
	autoQuery    = `mutation($id: ID!, $head: GitObjectID, $method: PullRequestMergeMethod) {
  enablePullRequestAutoMerge(input: {pullRequestId: $id, expectedHeadOid: $head, mergeMethod: $method}) {
    actor { login }
    pullRequest { number autoMergeRequest { mergeMethod enabledBy { login } } isInMergeQueue }
  }
}`
	disableQuery = `mutation($id: ID!) { disablePullRequestAutoMerge(input: {pullRequestId: $id}) { pullRequest { autoMergeRequest { mergeMethod } } } }`
	stateQuery   = `query($n: Int!) { repository(owner: "acme", name: "widgets") {
  autoMergeAllowed
  main: mergeQueue(branch: "main") { entries(first: 10) { totalCount nodes { position pullRequest { number } } } }
  other: mergeQueue(branch: "other") { url }
  pullRequest(number: $n) { isInMergeQueue isMergeQueueEnabled mergeStateStatus
    mergeQueueEntry { position } mergeQueue { resourcePath } autoMergeRequest { mergeMethod enabledAt } }
} }`
)

// mergeWorld is a repository with a pull request (#1) into main and an App
// token holding perms.
type mergeWorld struct {
	f    *ghfake.Fake
	repo *ghfake.Repo
	pr   *ghfake.PR
	tok  string
	id   string // the pull request's node ID
}

func newMergeWorld(t *testing.T, perms ghfake.Permissions, rules ghfake.BranchRules) *mergeWorld {
	t.Helper()
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	tok := f.App(42, testKey()).Install("acme", perms).Token()
	repo.SetBranchRules("main", rules)
	repo.Branch("feature", "main")
	repo.CommitBy("alice", "feature", "work", map[string]string{"a.txt": "a\n"})
	pr := repo.OpenPR("alice", "feature", "main", "Work", "")
	w := &mergeWorld{f: f, repo: repo, pr: pr, tok: tok}
	w.id = dig(post(t, f, tok, `{ repository(owner: "acme", name: "widgets") { pullRequest(number: 1) { id } } }`, nil),
		"data", "repository", "pullRequest", "id").(string)
	return w
}

var mergePerms = ghfake.Permissions{"issues": "read", "pull_requests": "write", "contents": "write", "merge_queues": "write", "checks": "read"}

// mutate runs a mutation and returns its data and its first error message.
func (w *mergeWorld) mutate(t *testing.T, tok, query string, vars map[string]any) (any, string) {
	t.Helper()
	if tok == "" {
		tok = w.tok
	}
	out := post(t, w.f, tok, query, vars)
	if errs, _ := out["errors"].([]any); len(errs) > 0 {
		msg, _ := dig(errs, 0, "message").(string)
		return out["data"], msg
	}
	return out["data"], ""
}

// TestGraphQLEnqueuePullRequest: enqueuePullRequest adds the pull request
// at the expected head to its base branch's queue, and refuses a stale
// expected head, a second enqueue, a branch without a queue, a head whose
// required checks have not passed and a token without merge_queues write.
func TestGraphQLEnqueuePullRequest(t *testing.T) {
	queue := ghfake.BranchRules{MergeQueue: true}
	tests := []struct {
		name    string
		rules   ghfake.BranchRules
		perms   ghfake.Permissions
		setup   func(t *testing.T, w *mergeWorld)
		head    func(w *mergeWorld) string
		wantErr string
		want    []ghfake.QueueEntry
	}{
		{name: "at the audited head", rules: queue, perms: mergePerms,
			want: []ghfake.QueueEntry{{PR: 1, Enqueuer: "app-42[bot]", Position: 1}}},
		{name: "without an expected head", rules: queue, perms: mergePerms, head: func(*mergeWorld) string { return "" },
			want: []ghfake.QueueEntry{{PR: 1, Enqueuer: "app-42[bot]", Position: 1}}},
		{name: "a stale expected head is refused", rules: queue, perms: mergePerms,
			head: func(w *mergeWorld) string {
				old := w.pr.Head()
				w.pr.Commit("more", map[string]string{"b.txt": "b\n"})
				return old
			},
			wantErr: "Head branch was modified"},
		// Negative control of the binding: without expectedHeadOid, a head
		// pushed after the judgement is what gets queued.
		{name: "no expected head after a push queues the unjudged head", rules: queue, perms: mergePerms,
			head: func(w *mergeWorld) string {
				w.pr.Commit("pushed after the judgement", map[string]string{"b.txt": "b\n"})
				return ""
			},
			want: []ghfake.QueueEntry{{PR: 1, Enqueuer: "app-42[bot]", Position: 1}}},
		{name: "twice is refused", rules: queue, perms: mergePerms,
			setup: func(t *testing.T, w *mergeWorld) {
				if _, msg := w.mutate(t, "", enqueueQuery, map[string]any{"id": w.id, "head": w.pr.Head()}); msg != "" {
					t.Fatal(msg)
				}
			},
			wantErr: "already in the merge queue", want: []ghfake.QueueEntry{{PR: 1, Enqueuer: "app-42[bot]", Position: 1}}},
		{name: "a branch without a queue is refused", perms: mergePerms, wantErr: "does not have a merge queue"},
		{name: "a required check not passed is refused", rules: ghfake.BranchRules{MergeQueue: true, RequiredChecks: []string{"aepgate/merge"}},
			perms: mergePerms, wantErr: "Required status checks have not succeeded"},
		{name: "a required check passed", rules: ghfake.BranchRules{MergeQueue: true, RequiredChecks: []string{"aepgate/merge"}},
			perms: mergePerms, setup: func(t *testing.T, w *mergeWorld) {
				w.repo.AddCheckRun(42, w.pr.Head(), "aepgate/merge", "completed", "success")
			},
			want: []ghfake.QueueEntry{{PR: 1, Enqueuer: "app-42[bot]", Position: 1}}},
		{name: "no merge_queues write is refused", rules: queue, perms: ghfake.Permissions{"pull_requests": "write", "contents": "write", "merge_queues": "read"},
			wantErr: "Resource not accessible by integration"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newMergeWorld(t, tt.perms, tt.rules)
			if tt.setup != nil {
				tt.setup(t, w)
			}
			head := w.pr.Head()
			if tt.head != nil {
				head = tt.head(w)
			}
			vars := map[string]any{"id": w.id, "head": head}
			if head == "" {
				vars["head"] = nil
			}
			data, msg := w.mutate(t, "", enqueueQuery, vars)
			if !strings.Contains(msg, tt.wantErr) || (tt.wantErr == "") != (msg == "") {
				t.Fatalf("enqueue error = %q, want %q", msg, tt.wantErr)
			}
			got := w.repo.MergeQueue("main")
			for i := range got {
				if got[i].Head != w.pr.Head() {
					t.Errorf("entry %d head = %s, want the pull request's head %s", i, got[i].Head, w.pr.Head())
				}
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(ghfake.QueueEntry{}, "Head", "Base", "EnqueuedAt")); diff != "" {
				t.Errorf("queue (-want +got):\n%s", diff)
			}
			if tt.wantErr == "" && dig(data, "enqueuePullRequest", "mergeQueueEntry", "headCommit", "oid") != w.pr.Head() {
				t.Errorf("entry = %v, want its head commit %s", data, w.pr.Head())
			}
		})
	}
}

// TestGraphQLEnqueueJumpAndDequeue: jump puts an entry at the front;
// dequeuePullRequest takes one out (by the pull request's ID) and refuses a
// pull request not in the queue; a push to a queued head takes it out, as
// on GitHub.
func TestGraphQLEnqueueJumpAndDequeue(t *testing.T) {
	w := newMergeWorld(t, mergePerms, ghfake.BranchRules{MergeQueue: true})
	w.repo.Branch("second", "main")
	w.repo.CommitBy("bob", "second", "other", map[string]string{"b.txt": "b\n"})
	second := w.repo.OpenPR("bob", "second", "main", "Other", "")
	id2 := dig(post(t, w.f, w.tok, `{ repository(owner: "acme", name: "widgets") { pullRequest(number: 2) { id } } }`, nil),
		"data", "repository", "pullRequest", "id").(string)
	if _, msg := w.mutate(t, "", enqueueQuery, map[string]any{"id": w.id, "head": w.pr.Head()}); msg != "" {
		t.Fatal(msg)
	}
	data, msg := w.mutate(t, "", enqueueQuery, map[string]any{"id": id2, "head": second.Head(), "jump": true})
	if msg != "" || dig(data, "enqueuePullRequest", "mergeQueueEntry", "position") != float64(1) {
		t.Fatalf("jump: %v %q, want position 1", data, msg)
	}
	if got := prNumbers(w.repo.MergeQueue("main")); !cmp.Equal(got, []int{2, 1}) {
		t.Errorf("queue = %v, want [2 1]", got)
	}
	state := post(t, w.f, w.tok, stateQuery, map[string]any{"n": 1})
	want := map[string]any{"autoMergeAllowed": false, "other": nil,
		"main": map[string]any{"entries": map[string]any{"totalCount": float64(2), "nodes": []any{
			map[string]any{"position": float64(1), "pullRequest": map[string]any{"number": float64(2)}},
			map[string]any{"position": float64(2), "pullRequest": map[string]any{"number": float64(1)}}}}},
		"pullRequest": map[string]any{"isInMergeQueue": true, "isMergeQueueEnabled": true, "mergeStateStatus": "CLEAN",
			"mergeQueueEntry": map[string]any{"position": float64(2)}, "mergeQueue": map[string]any{"resourcePath": "/acme/widgets/queue/main"},
			"autoMergeRequest": nil}}
	if diff := cmp.Diff(want, dig(state, "data", "repository")); diff != "" {
		t.Errorf("queue read (-want +got):\n%s", diff)
	}

	if data, msg := w.mutate(t, "", dequeueQuery, map[string]any{"id": id2}); msg != "" || dig(data, "dequeuePullRequest", "mergeQueueEntry", "pullRequest", "number") != float64(2) {
		t.Errorf("dequeue = %v %q", data, msg)
	}
	if _, msg := w.mutate(t, "", dequeueQuery, map[string]any{"id": id2}); !strings.Contains(msg, "not in the merge queue") {
		t.Errorf("dequeue of a pull request not queued = %q, want a refusal", msg)
	}
	w.pr.Commit("push after the enqueue", map[string]string{"c.txt": "c\n"})
	if got := w.repo.MergeQueue("main"); got != nil {
		t.Errorf("after a push to the queued head the queue = %+v, want empty", got)
	}
	w.f.VerifyMutations(t, "enqueuePullRequest", "enqueuePullRequest", "dequeuePullRequest")
	if log := w.f.WriteLog(); !strings.Contains(log, "[dequeuePullRequest refused: Pull request is not in the merge queue]") {
		t.Errorf("write log does not show the refused dequeue:\n%s", log)
	}
}

func prNumbers(q []ghfake.QueueEntry) []int {
	var out []int
	for _, e := range q {
		out = append(out, e.PR)
	}
	return out
}

// TestGraphQLAutoMerge: enablePullRequestAutoMerge is refused when the
// repository does not allow it, when the head moved and when the pull
// request could merge now ("clean"); it is kept while a required check is
// pending, read back, merged by RunAutoMerge once the check passes, and
// disabled by a push from someone without write access.
func TestGraphQLAutoMerge(t *testing.T) {
	pending := ghfake.BranchRules{RequiredChecks: []string{"aepgate/merge"}}
	tests := []struct {
		name    string
		rules   ghfake.BranchRules
		allow   bool
		stale   bool
		wantErr string
	}{
		{name: "not allowed by the repository", rules: pending, wantErr: "Auto merge is not allowed for this repository"},
		{name: "stale expected head", rules: pending, allow: true, stale: true, wantErr: "Head branch was modified"},
		{name: "clean: nothing to wait for", allow: true, wantErr: "is in clean status"},
		{name: "waiting for a required check", rules: pending, allow: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newMergeWorld(t, mergePerms, tt.rules)
			w.repo.AllowAutoMerge(tt.allow)
			head := w.pr.Head()
			if tt.stale {
				w.pr.Commit("more", map[string]string{"b.txt": "b\n"})
			}
			data, msg := w.mutate(t, "", autoQuery, map[string]any{"id": w.id, "head": head, "method": "SQUASH"})
			if !strings.Contains(msg, tt.wantErr) || (tt.wantErr == "") != (msg == "") {
				t.Fatalf("enable auto-merge error = %q, want %q", msg, tt.wantErr)
			}
			got := w.pr.AutoMerge()
			if tt.wantErr != "" {
				if got != nil {
					t.Errorf("auto-merge = %+v after a refusal", got)
				}
				return
			}
			if got == nil || got.Method != ghfake.Squash || got.EnabledBy != "app-42[bot]" || got.ExpectedHead != head {
				t.Fatalf("auto-merge = %+v, want squash by app-42[bot] expecting %s", got, head)
			}
			if dig(data, "enablePullRequestAutoMerge", "pullRequest", "autoMergeRequest", "mergeMethod") != "SQUASH" {
				t.Errorf("payload = %v", data)
			}
			if merged := w.repo.RunAutoMerge(); merged != nil {
				t.Errorf("RunAutoMerge merged %v while the required check is pending", merged)
			}
			w.repo.AddCheckRun(42, head, "aepgate/merge", "completed", "success")
			if merged := w.repo.RunAutoMerge(); !cmp.Equal(merged, []int{1}) {
				t.Errorf("RunAutoMerge = %v, want [1] once the check passed", merged)
			}
		})
	}
}

// TestGraphQLAutoMergeDisable: disablePullRequestAutoMerge and a push by
// someone without write access end auto-merge; a push by a writer keeps it.
func TestGraphQLAutoMergeDisable(t *testing.T) {
	w := newMergeWorld(t, mergePerms, ghfake.BranchRules{RequiredChecks: []string{"ci"}})
	w.repo.AllowAutoMerge(true)
	enable := func() {
		t.Helper()
		if _, msg := w.mutate(t, "", autoQuery, map[string]any{"id": w.id, "head": w.pr.Head()}); msg != "" {
			t.Fatal(msg)
		}
	}
	enable()
	w.repo.CommitBy("acme", "feature", "by the owner", map[string]string{"o.txt": "o\n"})
	if w.pr.AutoMerge() == nil {
		t.Error("a push by a writer disabled auto-merge")
	}
	w.pr.Commit("by the author, no write access", map[string]string{"d.txt": "d\n"})
	if w.pr.AutoMerge() != nil {
		t.Error("a push by someone without write access kept auto-merge")
	}
	enable()
	if data, msg := w.mutate(t, "", disableQuery, map[string]any{"id": w.id}); msg != "" || dig(data, "disablePullRequestAutoMerge", "pullRequest", "autoMergeRequest") != nil {
		t.Errorf("disable = %v %q", data, msg)
	}
	if w.pr.AutoMerge() != nil {
		t.Error("auto-merge still enabled after disablePullRequestAutoMerge")
	}
	w.f.VerifyMutations(t, "enablePullRequestAutoMerge", "enablePullRequestAutoMerge", "disablePullRequestAutoMerge")
}

// TestMergeQueueMergesAndRefusesDirectMerges: on a branch with a queue a
// REST merge is refused (405), auto-merge with passing checks enqueues, and
// MergeFromQueue merges the front entry as github-merge-queue[bot].
func TestMergeQueueMergesAndRefusesDirectMerges(t *testing.T) {
	w := newMergeWorld(t, mergePerms, ghfake.BranchRules{MergeQueue: true})
	w.repo.AllowAutoMerge(true)
	c := client(t, w.f, w.tok)
	if _, _, err := c.PullRequests.Merge(ctx, "acme", "widgets", 1, "", nil); status(err) != http.StatusMethodNotAllowed {
		t.Errorf("REST merge into a queue branch: %v, want 405", err)
	}
	data, msg := w.mutate(t, "", autoQuery, map[string]any{"id": w.id, "head": w.pr.Head()})
	if msg != "" || dig(data, "enablePullRequestAutoMerge", "pullRequest", "isInMergeQueue") != true {
		t.Fatalf("auto-merge on a queue branch = %v %q, want the pull request enqueued", data, msg)
	}
	head := w.pr.Head()
	sha, err := w.repo.MergeFromQueue("main")
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := c.PullRequests.Get(ctx, "acme", "widgets", 1)
	if err != nil {
		t.Fatal(err)
	}
	if !got.GetMerged() || got.GetMergeCommitSHA() != sha || got.GetMergedBy().GetLogin() != "github-merge-queue[bot]" || got.GetHead().GetSHA() != head {
		t.Errorf("merged %v by %s at %s, want merged by github-merge-queue[bot] at %s", got.GetMerged(), got.GetMergedBy().GetLogin(), got.GetMergeCommitSHA(), sha)
	}
	if q := w.repo.MergeQueue("main"); q != nil {
		t.Errorf("queue after the merge = %+v", q)
	}
	if _, err := w.repo.MergeFromQueue("main"); err == nil {
		t.Error("MergeFromQueue on an empty queue succeeded")
	}
}

// TestGraphQLMergeMutationsNeedWriteAccess: a person without write access
// may not enqueue or enable auto-merge; an issue's ID is not a pull
// request.
func TestGraphQLMergeMutationsNeedWriteAccess(t *testing.T) {
	w := newMergeWorld(t, mergePerms, ghfake.BranchRules{MergeQueue: true})
	w.repo.AllowAutoMerge(true)
	stranger := w.f.UserToken("mallory")
	for _, q := range []string{enqueueQuery, autoQuery} {
		if _, msg := w.mutate(t, stranger, q, map[string]any{"id": w.id}); !strings.Contains(msg, "does not have the correct permissions") {
			t.Errorf("%.40s by a stranger = %q, want refused", q, msg)
		}
	}
	w.repo.Grant("bob", "write")
	if _, msg := w.mutate(t, w.f.UserToken("bob"), enqueueQuery, map[string]any{"id": w.id}); msg != "" {
		t.Errorf("enqueue by a writer = %q", msg)
	}
	w.repo.OpenIssue("alice", "an issue", "")
	issueID := dig(post(t, w.f, w.tok, `{ repository(owner: "acme", name: "widgets") { issue(number: 2) { id } } }`, nil), "data", "repository", "issue", "id")
	if _, msg := w.mutate(t, "", dequeueQuery, map[string]any{"id": issueID}); !strings.Contains(msg, "Could not resolve to a PullRequest") {
		t.Errorf("dequeue of an issue's ID = %q", msg)
	}
}
