package merge_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/app/merge"
	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// ledger keeps the rows recorded.
type ledger struct{ rows []store.Entry }

func (l *ledger) Record(_ context.Context, e store.Entry) error {
	l.rows = append(l.rows, e)
	return nil
}

// negWorld is a repository on the fake GitHub with one open pull request
// and a Merger on the App's installation: the Merger is handed the
// evaluation and the checks shown that the pull judge would hand it, so a
// test can replace one of its rules.
type negWorld struct {
	f    *ghfake.Fake
	repo *ghfake.Repo
	pr   *ghfake.PR
	gh   *gh.Installation
	bot  string
}

const negAppID = 77

func newNegWorld(t *testing.T, rules ghfake.BranchRules) *negWorld {
	t.Helper()
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	key := appkit.Key(t)
	a := f.App(negAppID, key)
	inst := a.Install("acme", appkit.MergePerms(), repo)
	clients := gh.NewClients(gh.NewAppAuth(negAppID, key, f.URL(), nil), f.URL())
	clients.WritePause = 0
	in, err := clients.Installation(inst.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"olivia", "mallory", "bob"} {
		repo.Grant(u, "write")
	}
	repo.SetBranchRules("main", rules)
	repo.AllowAutoMerge(true)
	repo.Branch("work", "main")
	repo.Commit("work", "work", map[string]string{"work.go": "package work\n"})
	pr := repo.OpenPR("bob", "work", "main", "Work", "Work-unit: #1")
	return &negWorld{f: f, repo: repo, pr: pr, gh: in, bot: a.Slug + "[bot]"}
}

// ev is the evaluation of the pull request at head with its conversation
// as GitHub holds it now.
func (w *negWorld) ev(head string, cfg *config.Config) *verdict.Evaluation {
	var th snapshot.Thread
	for _, c := range w.pr.Comments() {
		typ := "User"
		if strings.HasSuffix(c.Author, "[bot]") {
			typ = "Bot"
		}
		th.Comments = append(th.Comments, snapshot.Comment{ID: c.ID, Body: c.Body, Author: snapshot.Actor{Login: c.Author, Type: typ}})
	}
	snap := &snapshot.PR{Repo: "acme/widgets", Has: snapshot.Needs{Conversation: true},
		Pull: &snapshot.Pull{Number: w.pr.Number(), State: "OPEN", HeadSHA: head, BaseRef: "main", Conversation: th}}
	return &verdict.Evaluation{Snap: snap, Cfg: cfg, AppLogin: w.bot}
}

// shown are the App's checks on head, all green but the named one failed.
func shown(head, failed string) []verdict.Shown {
	var out []verdict.Shown
	for _, n := range []string{checks.NameWorkUnit, checks.NameAudit, checks.NameGates, checks.NameMerge} {
		c := checks.ConclusionSuccess
		if n == failed {
			c = checks.ConclusionFailure
		}
		out = append(out, verdict.Shown{Run: checks.Run{Name: n, HeadSHA: head, Status: checks.StatusCompleted, Conclusion: c, Title: "judged"}})
	}
	return out
}

// judged runs m on one judgement of the pull request at head, answering
// comment answer (0: none), with checks shown.
func (w *negWorld) judged(t *testing.T, m merge.Merger, head string, answer int64, s []verdict.Shown) {
	t.Helper()
	w.judgedWith(t, m, &config.Config{Owners: []string{"olivia"}, CommandPrefix: "/aep"}, head, answer, s)
}

// judgedWith is judged under config cfg.
func (w *negWorld) judgedWith(t *testing.T, m merge.Merger, cfg *config.Config, head string, answer int64, s []verdict.Shown) {
	t.Helper()
	in := pull.Input{Owner: "acme", Repo: "widgets", PR: w.pr.Number(), Answer: answer}
	if err := m.Judged(context.Background(), in, w.ev(head, cfg), s); err != nil {
		t.Fatal(err)
	}
}

func merger(w *negWorld, r merge.Rules) merge.Merger {
	return merge.Merger{GitHub: w.gh, Ledger: new(ledger), Rules: r, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

// TestMergerNegativeControls: each protection of the merge, then the same
// scenario with it removed through its rule (merge.Rules), where the
// attack it stops succeeds on the fake GitHub.
func TestMergerNegativeControls(t *testing.T) {
	for _, tt := range []struct {
		name string
		run  func(t *testing.T, r merge.Rules) bool // true: the attack succeeded
		rm   merge.Rules                            // the protection removed
	}{
		{"the enqueue is bound to the judged head", pushedBeforeEnqueue,
			merge.Rules{Head: func(_, now string) string { return now }}},
		{"only an owner or merge.authority asks", nonOwnerAsks,
			merge.Rules{May: func(merge.Asker, *config.Config) string { return "" }}},
		{"a HOLD (aepgate/gates failing) dequeues", heldAfterEnqueue,
			merge.Rules{Green: func(string, []verdict.Shown) string { return "" }}},
		{"merge.auto merges only a green head", autoOnARedHead,
			merge.Rules{Green: func(string, []verdict.Shown) string { return "" }}},
		{"a push disables the App's auto-merge", pushedAfterAutoMerge,
			merge.Rules{Moved: func(string, string) bool { return false }}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.run(t, merge.Rules{}) {
				t.Error("with the protection the attack succeeded")
			}
			if !tt.run(t, tt.rm) {
				t.Error("with the protection removed the attack still failed: the control shows nothing")
			}
		})
	}
}

// pushedBeforeEnqueue: olivia asks at the judged head, a push lands before
// the enqueue; the attack succeeds when the moved head is enqueued.
func pushedBeforeEnqueue(t *testing.T, r merge.Rules) bool {
	w := newNegWorld(t, ghfake.BranchRules{MergeQueue: true})
	judged := w.pr.Head()
	c := w.pr.Comment("olivia", "/aep merge")
	moved := w.pr.Commit("sneaked in", map[string]string{"sneak.go": "package work\n"})
	w.judged(t, merger(w, r), judged, c.ID(), shown(judged, ""))
	q := w.repo.MergeQueue("main")
	return len(q) == 1 && q[0].Head == moved
}

// nonOwnerAsks: mallory, a writer who is no owner, asks; the attack
// succeeds when the pull request is enqueued.
func nonOwnerAsks(t *testing.T, r merge.Rules) bool {
	w := newNegWorld(t, ghfake.BranchRules{MergeQueue: true})
	head := w.pr.Head()
	c := w.pr.Comment("mallory", "/aep merge")
	w.judged(t, merger(w, r), head, c.ID(), shown(head, ""))
	return len(w.repo.MergeQueue("main")) == 1
}

// heldAfterEnqueue: the App enqueued the head, then aepgate/gates fails
// on it (a HOLD); the attack succeeds when it stays queued.
func heldAfterEnqueue(t *testing.T, r merge.Rules) bool {
	w := newNegWorld(t, ghfake.BranchRules{MergeQueue: true})
	head := w.pr.Head()
	c := w.pr.Comment("olivia", "/aep merge")
	m := merger(w, r)
	w.judged(t, m, head, c.ID(), shown(head, ""))
	if len(w.repo.MergeQueue("main")) != 1 {
		t.Fatal("not enqueued")
	}
	w.pr.Comment("olivia", "/aep hold the release is frozen")
	w.judged(t, m, head, 0, shown(head, checks.NameGates))
	return len(w.repo.MergeQueue("main")) == 1
}

// pushedAfterAutoMerge: the App enabled auto-merge at the judged head on a
// branch without a queue; a writer pushes a new head whose checks are
// green but that nobody asked to merge. The attack succeeds when GitHub
// then merges the new head.
func pushedAfterAutoMerge(t *testing.T, r merge.Rules) bool {
	w := newNegWorld(t, ghfake.BranchRules{RequiredChecks: []string{"ci/build"}})
	head := w.pr.Head()
	c := w.pr.Comment("olivia", "/aep merge")
	m := merger(w, r)
	w.judged(t, m, head, c.ID(), shown(head, ""))
	if am := w.pr.AutoMerge(); am == nil || am.ExpectedHead != head {
		t.Fatalf("auto-merge = %+v, want enabled at %s", am, head)
	}
	moved := w.pr.Commit("more", map[string]string{"more.go": "package work\n"})
	w.judged(t, m, moved, 0, shown(moved, ""))
	w.repo.AddCheckRun(appkit.CIAppID, moved, "ci/build", "completed", "success")
	merged := w.repo.RunAutoMerge()
	return len(merged) == 1
}

// autoOnARedHead: merge.auto is on and aepgate/merge fails on the head;
// the attack succeeds when the head is enqueued all the same.
func autoOnARedHead(t *testing.T, r merge.Rules) bool {
	w := newNegWorld(t, ghfake.BranchRules{MergeQueue: true})
	head := w.pr.Head()
	cfg := &config.Config{Owners: []string{"olivia"}, CommandPrefix: "/aep", Merge: config.Merge{Auto: true}}
	w.judgedWith(t, merger(w, r), cfg, head, 0, shown(head, checks.NameMerge))
	return len(w.repo.MergeQueue("main")) == 1
}
