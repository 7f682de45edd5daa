package merge_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

const ownerYAML = "version: 1\nowners: [olivia]\n"

// reactions are the reactions on comment c.
func reactions(w *appkit.MergeWorld, id int64) string {
	view, _ := w.Repo.CommentByID(id)
	return strings.Join(view.Reactions, ",")
}

// onlyReply is the App's one merge reply, failing the test unless there
// is exactly one holding want.
func onlyReply(t *testing.T, w *appkit.MergeWorld, want ...string) string {
	t.Helper()
	rs := w.MergeReplies()
	if len(rs) != 1 {
		t.Fatalf("merge replies = %q, want one", rs)
	}
	for _, s := range want {
		if !strings.Contains(rs[0], s) {
			t.Errorf("merge reply lacks %q:\n%s", s, rs[0])
		}
	}
	return rs[0]
}

// applied counts the applied GraphQL mutations called name.
func applied(w *appkit.MergeWorld, name string) int {
	n := 0
	for _, m := range w.F.Mutations() {
		if m.Name == name && m.Err == "" {
			n++
		}
	}
	return n
}

// enqueued makes the pull request green, has olivia say `/aep merge`, and
// checks it was enqueued at its head; it returns that head.
func enqueued(t *testing.T, w *appkit.MergeWorld) string {
	head, _ := enqueuedBy(t, w)
	return head
}

// enqueuedBy is enqueued, also returning the command's ID.
func enqueuedBy(t *testing.T, w *appkit.MergeWorld) (string, int64) {
	t.Helper()
	w.Green(t, true)
	head := w.PR.Head()
	c := w.Say(t, "olivia", "/aep merge")
	if q := w.Queue(); len(q) != 1 || q[0].Head != head || q[0].PR != w.PR.Number() {
		t.Fatalf("queue = %+v, want #%d at %s", q, w.PR.Number(), head)
	}
	if got := reactions(w, c.ID()); got != "+1" {
		t.Errorf("reactions on the command = %q, want +1", got)
	}
	return head, c.ID()
}

// TestMergeEnqueuesTheJudgedHead: an owner's `/aep merge` on a head whose
// every aepgate check is green enqueues it, bound to that head
// (expectedHeadOid), says so in one reply with 👍, and a redelivered
// command changes nothing.
func TestMergeEnqueuesTheJudgedHead(t *testing.T) {
	w := appkit.NewMergeWorld(t, ownerYAML, true, nil)
	head, id := enqueuedBy(t, w)
	onlyReply(t, w, "state=bound head="+head, "Enqueued `"+head[:12]+"` in the merge queue of `main`", "asked by @olivia")
	if n := applied(w, "enqueuePullRequest"); n != 1 {
		t.Fatalf("enqueuePullRequest applied %d times, want 1", n)
	}
	w.RedeliverComment(t, id)
	if q := w.Queue(); len(q) != 1 {
		t.Errorf("queue after a redelivery = %+v, want the one entry", q)
	}
	if n := applied(w, "enqueuePullRequest"); n != 1 {
		t.Errorf("after a redelivery enqueuePullRequest applied %d times, want 1", n)
	}
	onlyReply(t, w)
}

// TestMergeRefusesARedHead: `/aep merge` while aepgate/merge fails on the
// head (no worker report) enqueues nothing and says which check is not
// green.
func TestMergeRefusesARedHead(t *testing.T) {
	w := appkit.NewMergeWorld(t, ownerYAML, true, nil)
	appkit.WaitFor(t, 20*time.Second, "aepgate/merge judged", func() bool { return appkit.ConclusionOf(w.Repo, w.PR.Head(), "aepgate/merge") != "" })
	c := w.Say(t, "olivia", "/aep merge")
	if q := w.Queue(); len(q) != 0 {
		t.Fatalf("queue = %+v, want empty", q)
	}
	onlyReply(t, w, "state=declined", "aepgate/merge is failure on")
	if got := reactions(w, c.ID()); got != "-1" {
		t.Errorf("reactions = %q, want -1", got)
	}
}

// TestMergeRefusesNonOwner: a writer who is neither an owner nor named in
// merge.authority is refused (👎 and why) and nothing is enqueued; a login
// merge.authority names is obeyed. (The negative control, with the rule
// removed, is TestMergerNegativeControls.)
func TestMergeRefusesNonOwner(t *testing.T) {
	for _, tt := range []struct {
		name, config, who string
		want              int
	}{
		{"a writer who is not an owner", ownerYAML, "mallory", 0},
		{"a coordinator named in merge.authority", ownerYAML + "merge:\n  authority: [owners, merge-queue, mallory]\n", "mallory", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := appkit.NewMergeWorld(t, tt.config, true, nil)
			w.Green(t, true)
			c := w.Say(t, tt.who, "/aep merge")
			if q := w.Queue(); len(q) != tt.want {
				t.Fatalf("queue = %+v, want %d entries", q, tt.want)
			}
			if tt.want == 0 {
				onlyReply(t, w, "state=declined", "@mallory is neither an owner")
				if got := reactions(w, c.ID()); got != "-1" {
					t.Errorf("reactions = %q, want -1", got)
				}
			}
		})
	}
}

// TestMergePushAfterEnqueueReleases: a push after the App enqueued the
// head takes the pull request out of the queue (GitHub does so itself),
// and the App says why in one reply; the new head is not enqueued.
func TestMergePushAfterEnqueueReleases(t *testing.T) {
	w := appkit.NewMergeWorld(t, ownerYAML, true, nil)
	head := enqueued(t, w)
	w.PR.Commit("more", map[string]string{"more.go": "package work\n"})
	appkit.WaitFor(t, 20*time.Second, "the release reply", func() bool { return len(w.MergeReplies()) == 2 })
	w.Quiet(t)
	if q := w.Queue(); len(q) != 0 {
		t.Fatalf("queue = %+v, want empty", q)
	}
	if r := w.MergeReplies()[1]; !strings.Contains(r, "state=released head="+head) || !strings.Contains(r, "the head moved from") {
		t.Errorf("release reply:\n%s", r)
	}
}

// TestMergeHoldDequeues: an owner's HOLD after the enqueue makes
// aepgate/gates fail, and the App takes the pull request out of the
// merge queue (dequeuePullRequest) with one reply naming the check.
func TestMergeHoldDequeues(t *testing.T) {
	w := appkit.NewMergeWorld(t, ownerYAML, true, nil)
	head := enqueued(t, w)
	w.Say(t, "olivia", "/aep hold the release is frozen")
	appkit.WaitFor(t, 20*time.Second, "the release reply", func() bool { return len(w.MergeReplies()) == 2 })
	if q := w.Queue(); len(q) != 0 {
		t.Fatalf("queue = %+v, want empty", q)
	}
	r := w.MergeReplies()[1]
	for _, want := range []string{"state=released head=" + head, "aepgate/gates is", "took it out of the merge queue"} {
		if !strings.Contains(r, want) {
			t.Errorf("release reply lacks %q:\n%s", want, r)
		}
	}
	if n := applied(w, "dequeuePullRequest"); n != 1 {
		t.Errorf("%d dequeuePullRequest calls, want 1", n)
	}
}

// TestMergeAutoMergeWithoutQueue: on a branch without a merge queue the
// App enables auto-merge bound to the judged head (expectedHeadOid); a
// push by a writer leaves auto-merge on at GitHub, so the App disables it
// and says why.
func TestMergeAutoMergeWithoutQueue(t *testing.T) {
	w := appkit.NewMergeWorld(t, ownerYAML, false, nil)
	w.Green(t, false) // ci/build pending: GitHub has something to wait for
	head := w.PR.Head()
	w.Say(t, "olivia", "/aep merge")
	am := w.PR.AutoMerge()
	if am == nil || am.ExpectedHead != head {
		t.Fatalf("auto-merge = %+v, want enabled at %s", am, head)
	}
	onlyReply(t, w, "state=bound head="+head, "Enabled auto-merge")
	w.PR.Commit("more", map[string]string{"more.go": "package work\n"})
	appkit.WaitFor(t, 20*time.Second, "the release reply", func() bool { return len(w.MergeReplies()) == 2 })
	if am := w.PR.AutoMerge(); am != nil {
		t.Fatalf("auto-merge after the push = %+v, want disabled", am)
	}
	if r := w.MergeReplies()[1]; !strings.Contains(r, "disabled auto-merge") {
		t.Errorf("release reply:\n%s", r)
	}
}

// TestMergeAuto: with merge.auto the App enqueues a head once every
// aepgate check on it is green, without a command, once; without it
// nothing is enqueued.
func TestMergeAuto(t *testing.T) {
	for _, tt := range []struct {
		name, config string
		want         int
	}{
		{"merge.auto", ownerYAML + "merge:\n  auto: true\n", 1},
		{"control: merge.auto off", ownerYAML, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := appkit.NewMergeWorld(t, tt.config, true, nil)
			appkit.WaitFor(t, 20*time.Second, "aepgate/merge judged", func() bool { return appkit.ConclusionOf(w.Repo, w.PR.Head(), "aepgate/merge") != "" })
			w.Quiet(t)
			if q := w.Queue(); len(q) != 0 {
				t.Fatalf("queue of a red head = %+v, want empty", q)
			}
			w.Green(t, true)
			w.Say(t, "olivia", "Looks good.") // one more judgement: still one entry
			q := w.Queue()
			if len(q) != tt.want || tt.want == 1 && q[0].Head != w.PR.Head() {
				t.Fatalf("queue = %+v, want %d at %s", q, tt.want, w.PR.Head())
			}
			if tt.want == 1 {
				onlyReply(t, w, "merge.auto is on")
			}
		})
	}
}

// pushAfterRead pushes a commit onto the pull request once, right after
// the first snapshot read once armed: the head moves between the
// judgement and the enqueue.
type pushAfterRead struct {
	app.Snapshotter
	armed *atomic.Bool
	push  func()
}

func (p pushAfterRead) Snapshot(ctx context.Context, req gh.SnapshotRequest) (*snapshot.PR, error) {
	s, err := p.Snapshotter.Snapshot(ctx, req)
	if err == nil && p.armed.CompareAndSwap(true, false) {
		p.push()
	}
	return s, err
}

// TestMergeRaceRefusedByExpectedHead: the head moves after the judgement
// of `/aep merge` read it and before the App enqueues: the enqueue is
// bound to the judged head, so GitHub's head check refuses it, nothing is
// enqueued, and the reply says the head moved. (With the binding removed,
// TestMergerNegativeControls enqueues the moved head.)
func TestMergeRaceRefusedByExpectedHead(t *testing.T) {
	armed := new(atomic.Bool)
	var w *appkit.MergeWorld
	w = appkit.NewMergeWorld(t, ownerYAML, true, func(o *app.Options) {
		o.Seams.Snapshots = func(s app.Snapshotter) app.Snapshotter {
			return pushAfterRead{Snapshotter: s, armed: armed, push: func() {
				w.Repo.Commit("work", "sneaked in", map[string]string{"sneak.go": "package work\n"})
			}}
		}
	})
	w.Green(t, true)
	judged := w.PR.Head()
	armed.Store(true)
	w.Say(t, "olivia", "/aep merge")
	appkit.WaitFor(t, 20*time.Second, "a merge reply", func() bool { return len(w.MergeReplies()) >= 1 })
	w.Quiet(t)
	if q := w.Queue(); len(q) != 0 {
		t.Fatalf("queue = %+v, want empty", q)
	}
	if w.PR.Head() == judged {
		t.Fatal("the head did not move")
	}
	r := w.MergeReplies()[0]
	if !strings.Contains(r, "state=refused head="+judged) || !strings.Contains(r, "moved from "+judged) {
		t.Errorf("reply:\n%s", r)
	}
}
