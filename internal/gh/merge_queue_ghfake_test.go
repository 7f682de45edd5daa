package gh_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

var mergePerms = ghfake.Permissions{"metadata": "read", "pull_requests": "write", "contents": "write", "merge_queues": "write", "checks": "read"}

// mergeWorld opens pull request #1 from feature into main under rules and
// reads its merge state.
func mergeWorld(t *testing.T, rules ghfake.BranchRules) (*ghfake.Fake, *ghfake.Repo, *ghfake.PR, *gh.Installation, *gh.PullMergeState) {
	t.Helper()
	ghfake.RequireGraphQL(t)
	f, repo, in, _ := installation(t, mergePerms)
	repo.SetBranchRules("main", rules)
	repo.Branch("feature", "main")
	repo.Commit("feature", "work", map[string]string{"a.go": "package a\n"})
	pr := repo.OpenPR("bob", "feature", "main", "Work", "")
	st, err := in.PullMergeState(context.Background(), "acme", "widgets", pr.Number())
	if err != nil {
		t.Fatal(err)
	}
	return f, repo, pr, in, st
}

func TestPullMergeStateAndBranchQueue(t *testing.T) {
	ctx := context.Background()
	_, repo, pr, in, st := mergeWorld(t, ghfake.BranchRules{MergeQueue: true})
	want := &gh.PullMergeState{ID: st.ID, Number: 1, State: "OPEN", Head: pr.Head(), Base: "main", QueueEnabled: true}
	if diff := cmp.Diff(want, st); diff != "" || st.ID == "" {
		t.Errorf("merge state (-want +got):\n%s", diff)
	}
	repo.Branch("release", "main")
	for branch, want := range map[string]bool{"main": true, "release": false, "missing": false} {
		got, err := in.BranchHasMergeQueue(ctx, "acme", "widgets", branch)
		if err != nil || got != want {
			t.Errorf("BranchHasMergeQueue(%s) = %v, %v; want %v", branch, got, err, want)
		}
	}
	if _, err := in.BranchHasMergeQueue(ctx, "acme", "nothing", "main"); err == nil {
		t.Error("BranchHasMergeQueue of a missing repository succeeded")
	}
}

// TestEnqueueBoundToHead: the enqueue carries the audited head; a push
// after it was judged makes GitHub refuse, which is a *HeadMovedError
// naming both heads; a second enqueue at the same head is idempotent; the
// dequeue takes it out and is idempotent too.
func TestEnqueueBoundToHead(t *testing.T) {
	ctx := context.Background()
	f, repo, pr, in, st := mergeWorld(t, ghfake.BranchRules{MergeQueue: true})
	audited := st.Head
	entry, err := in.EnqueuePullRequest(ctx, st.ID, audited, false)
	if err != nil {
		t.Fatal(err)
	}
	if entry.Head != audited || entry.Position != 1 || entry.Enqueuer != "app-31" {
		t.Errorf("entry = %+v, want position 1 at %s by app-31 (GraphQL logins of Bots have no [bot])", entry, audited)
	}
	again, err := in.EnqueuePullRequest(ctx, st.ID, audited, false)
	if err != nil || again.ID != entry.ID {
		t.Errorf("second enqueue = %+v, %v; want the same entry", again, err)
	}
	if got := repo.MergeQueue("main"); len(got) != 1 || got[0].Head != audited {
		t.Errorf("queue = %+v, want one entry at the audited head", got)
	}
	if err := in.DequeuePullRequest(ctx, st.ID); err != nil {
		t.Fatal(err)
	}
	if err := in.DequeuePullRequest(ctx, st.ID); err != nil {
		t.Errorf("dequeue of a pull request not queued: %v, want nil (already out)", err)
	}
	moved := pr.Commit("pushed after the audit", map[string]string{"b.go": "package a\n"})
	_, err = in.EnqueuePullRequest(ctx, st.ID, audited, false)
	var hm *gh.HeadMovedError
	if !errors.As(err, &hm) || hm.Expected != audited || hm.Actual != moved {
		t.Fatalf("enqueue at a stale head = %v, want a HeadMovedError from %s to %s", err, audited, moved)
	}
	if got := repo.MergeQueue("main"); got != nil {
		t.Errorf("queue after a refused enqueue = %+v", got)
	}
	f.VerifyMutations(t, "enqueuePullRequest", "dequeuePullRequest")
}

// TestEnqueueRefusalsAreNotHeadMoved: a refusal whose cause is not the
// head (no queue on the branch) is a plain wrapped error, never a
// HeadMovedError, and never a success.
func TestEnqueueRefusalsAreNotHeadMoved(t *testing.T) {
	ctx := context.Background()
	_, _, _, in, st := mergeWorld(t, ghfake.BranchRules{})
	_, err := in.EnqueuePullRequest(ctx, st.ID, st.Head, false)
	var hm *gh.HeadMovedError
	if err == nil || errors.As(err, &hm) {
		t.Errorf("enqueue into a branch without a queue = %v, want a refusal that is not HeadMovedError", err)
	}
	if _, err := in.EnqueuePullRequest(ctx, st.ID, "", false); err == nil {
		t.Error("an enqueue bound to no head was sent")
	}
}

// TestAutoMergeRefusalsAreTyped: enabling auto-merge bound to the head
// succeeds while a required check is pending; the head moving, the
// repository not allowing auto-merge and a pull request that can merge now
// are told apart; MergePullRequest bound to the head merges, and a stale
// head is a HeadMovedError.
func TestAutoMergeRefusalsAreTyped(t *testing.T) {
	ctx := context.Background()
	f, repo, pr, in, st := mergeWorld(t, ghfake.BranchRules{RequiredChecks: []string{"aepgate/merge"}})
	if err := in.EnableAutoMerge(ctx, st.ID, st.Head, "squash"); !errors.Is(err, gh.ErrAutoMergeNotAllowed) {
		t.Errorf("auto-merge in a repository that does not allow it = %v, want ErrAutoMergeNotAllowed", err)
	}
	repo.AllowAutoMerge(true)
	if err := in.EnableAutoMerge(ctx, st.ID, st.Head, "squash"); err != nil {
		t.Fatal(err)
	}
	got, err := in.PullMergeState(ctx, "acme", "widgets", 1)
	if err != nil || got.AutoMergeMethod != "SQUASH" || got.AutoMergeBy != "app-31" {
		t.Errorf("merge state = %+v, %v; want auto-merge SQUASH by app-31", got, err)
	}
	if am := pr.AutoMerge(); am == nil || am.ExpectedHead != st.Head {
		t.Errorf("auto-merge = %+v, want bound to %s", am, st.Head)
	}
	if err := in.DisableAutoMerge(ctx, st.ID); err != nil || pr.AutoMerge() != nil {
		t.Errorf("disable auto-merge: %v, left %+v", err, pr.AutoMerge())
	}
	repo.AddCheckRun(31, st.Head, "aepgate/merge", "completed", "success")
	if err := in.EnableAutoMerge(ctx, st.ID, st.Head, ""); !errors.Is(err, gh.ErrNothingToWaitFor) {
		t.Errorf("auto-merge of a pull request that can merge now = %v, want ErrNothingToWaitFor", err)
	}
	moved := pr.Commit("pushed after the audit", map[string]string{"b.go": "package a\n"})
	var hm *gh.HeadMovedError
	if err := in.EnableAutoMerge(ctx, st.ID, st.Head, ""); !errors.As(err, &hm) || hm.Actual != moved {
		t.Errorf("auto-merge at a stale head = %v, want HeadMovedError to %s", err, moved)
	}
	if _, err := in.MergePullRequest(ctx, "acme", "widgets", 1, st.Head, "merge"); !errors.As(err, &hm) {
		t.Errorf("merge at a stale head = %v, want HeadMovedError", err)
	}
	sha, err := in.MergePullRequest(ctx, "acme", "widgets", 1, moved, "merge")
	if err != nil || sha != repo.Head("main") {
		t.Errorf("merge at the head = %s, %v; want main's new head %s", sha, err, repo.Head("main"))
	}
	f.VerifyMutations(t, "enablePullRequestAutoMerge", "disablePullRequestAutoMerge")
}
