package board_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-github/v62/github"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/board"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/boardview"
)

func newBoardWorld(t *testing.T) *appkit.BoardWorld {
	t.Helper()
	w := appkit.NewLiveOpts(t, true, func(o *app.Options) { o.BoardDelay = 100 * time.Millisecond })
	w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": appkit.GatesConfig})
	w.Repo.Grant("olivia", "admin")
	ms := w.Repo.CreateMilestone("Reports", "")
	unit := w.Repo.OpenIssue("alice", "Export reports", appkit.Contract("low", "product"), ghfake.InMilestone(ms))
	return &appkit.BoardWorld{Live: w, MS: ms, Unit: unit, GH: w.F.Client(w.Inst.Token())}
}

// TestBoardEndToEnd: two attempts at one unit (the second fails
// aepgate/work-unit naming the first); the board issue appears labelled
// and pinned; an owner's HOLD reaches its inbox; a person's notes outside
// the markers survive the next rewrite.
func TestBoardEndToEnd(t *testing.T) {
	b := newBoardWorld(t)
	first := b.Attempt("first")
	appkit.WaitFor(t, 10*time.Second, "the first attempt judged", func() bool { return appkit.ConclusionOf(b.Repo, first.Head(), checks.NameWorkUnit) == "success" })
	second := b.Attempt("second")
	appkit.WaitFor(t, 10*time.Second, "the second attempt failed", func() bool { return appkit.ConclusionOf(b.Repo, second.Head(), checks.NameWorkUnit) == "failure" })
	if s := appkit.NewestRunOn(b.Repo, second.Head(), checks.NameWorkUnit).Summary; !strings.Contains(s, "limits.attempts_per_unit is 1") || !strings.Contains(s, "/pull/"+strconv.Itoa(first.Number())) {
		t.Errorf("the second attempt's work-unit run does not name the first:\n%s", s)
	}
	if c := appkit.ConclusionOf(b.Repo, first.Head(), checks.NameWorkUnit); c != "success" {
		t.Errorf("the first attempt's work-unit = %s, want success", c)
	}

	is := b.WaitBoard(t, "over `limits.attempts_per_unit`", "Export reports")
	appkit.WaitFor(t, 5*time.Second, "the board issue pinned", func() bool { return b.Repo.Issue(is.GetNumber()).Pinned() })
	if is.GetTitle() != checks.BoardTitle {
		t.Errorf("board issue title = %q", is.GetTitle())
	}

	b.Unit.Comment("olivia", "/aep hold waiting for legal")
	body := b.WaitBoard(t, "⏸️ HOLD", "waiting for legal", "`/aep resume`").GetBody()

	b.Repo.Issue(is.GetNumber()).Edit("olivia", "My notes on top.\n\n"+body+"\nA footer of mine.\n")
	b.Unit.Comment("olivia", "/aep resume")
	appkit.WaitFor(t, 10*time.Second, "the inbox emptied", func() bool {
		return strings.Contains(b.BoardIssue(t).GetBody(), "Nothing waits for the owner.")
	})
	got := b.BoardIssue(t).GetBody()
	if !strings.HasPrefix(got, "My notes on top.\n\n") || !strings.HasSuffix(got, "\nA footer of mine.\n") {
		t.Errorf("a person's notes were lost:\n%s", got)
	}

	kept, ok, err := b.App.Board(context.Background(), "acme/widgets")
	if err != nil || !ok {
		t.Fatalf("App.Board = %v, %v", ok, err)
	}
	if s := kept.Increments[0].Stories[0]; s.State != boardview.StateBlocked || len(s.Attempts) != 2 || s.Attempts[1].OverLimit != "limits.attempts_per_unit" {
		t.Errorf("kept board's story = %+v", s)
	}

	// Closing the first attempt lets the second through; nothing closed it.
	first.ClosePR("bob")
	appkit.WaitFor(t, 10*time.Second, "the second attempt within the limit", func() bool { return appkit.ConclusionOf(b.Repo, second.Head(), checks.NameWorkUnit) == "success" })
	b.WaitBoard(t, "/pull/"+strconv.Itoa(first.Number())+") closed")
}

// TestBoardAPICallsPerUpdate: a board update costs one read and one write
// when the board changed, one read and no write when it did not; the
// increments' stages come from the store, not from GitHub.
func TestBoardAPICallsPerUpdate(t *testing.T) {
	b := newBoardWorld(t)
	pr := b.Attempt("only")
	b.WaitBoard(t, "/pull/"+strconv.Itoa(pr.Number()))
	b.Idle(t) // evaluations and board jobs are done
	in, err := b.App.GitHub().Installation(b.Inst.ID)
	if err != nil {
		t.Fatal(err)
	}
	ctx, log := context.Background(), appkit.Logger(t)
	login, err := b.App.GitHub().AppLogin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		change func()
		want   map[string]int
	}{
		{"unchanged", func() {}, map[string]int{"POST /graphql": 1}},
		// A story renamed: nothing the App judges changes, so no update is
		// scheduled before this one (a new story would be: its increment's
		// judgement schedules one).
		{"a story renamed", func() {
			b.Unit.EditTitle("alice", "Export reports as CSV")
		}, map[string]int{"POST /graphql": 1, "PATCH /repos/{owner}/{repo}/issues/{issue_number}": 1}},
		{"unchanged again", func() {}, map[string]int{"POST /graphql": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.change()
			b.Idle(t)
			b.F.ResetLog()
			if err := b.App.Boards().Keep(ctx, in, "acme", "widgets", time.Now(), board.AuthoredBy(login), log); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, b.F.Stats().ByRoute); diff != "" {
				t.Errorf("API calls of one board update (-want +got):\n%s", diff)
			}
		})
	}
}

// TestBoardRewritesOnlyItsOwnIssue: an issue someone else opened and
// labelled aepgate:board, older than the App's, is left alone; the App
// opens its own. The negative control accepts any labelled issue, and the
// App then writes its board into the person's issue.
func TestBoardRewritesOnlyItsOwnIssue(t *testing.T) {
	tests := []struct {
		name       string
		owns       func(login string) func(gh.BoardIssue) bool
		wantTheirs bool
	}{
		{"the App's own only", board.AuthoredBy, false},
		{"negative control: any labelled issue", func(string) func(gh.BoardIssue) bool { return func(gh.BoardIssue) bool { return true } }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBoardWorld(t)
			theirs := b.Repo.OpenIssue("mallory", "Roadmap", "Our plans.", ghfake.WithLabels(checks.BoardLabel))
			ctx := context.Background()
			in, err := b.App.GitHub().Installation(b.Inst.ID)
			if err != nil {
				t.Fatal(err)
			}
			login, err := b.App.GitHub().AppLogin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if err := b.App.Boards().Keep(ctx, in, "acme", "widgets", time.Now(), tt.owns(login), appkit.Logger(t)); err != nil {
				t.Fatal(err)
			}
			is, _, err := b.GH.Issues.Get(ctx, "acme", "widgets", theirs.Number())
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(is.GetBody(), checks.BoardBegin); got != tt.wantTheirs {
				t.Errorf("the board written into the person's issue: %v, want %v", got, tt.wantTheirs)
			}
			mine, _, err := b.GH.Issues.ListByRepo(ctx, "acme", "widgets", &github.IssueListByRepoOptions{Labels: []string{checks.BoardLabel}, State: "all"})
			if err != nil {
				t.Fatal(err)
			}
			if want := map[bool]int{false: 2, true: 1}[tt.wantTheirs]; len(mine) != want {
				t.Errorf("%d issues labelled %s, want %d", len(mine), checks.BoardLabel, want)
			}
		})
	}
}

// TestBoardEvaluationWithNothingChangedWritesNothing: an owner's second
// recheck evaluates the attempt again; its board facts are the same, so no
// board update is asked for: its only write is the 👍 on the comment.
func TestBoardEvaluationWithNothingChangedWritesNothing(t *testing.T) {
	b := newBoardWorld(t)
	pr := b.Attempt("only")
	b.WaitBoard(t, "/pull/"+strconv.Itoa(pr.Number()))
	recheck := func() {
		c := pr.Comment("olivia", "/aep recheck")
		appkit.WaitFor(t, 10*time.Second, "the recheck answered", func() bool {
			rs, _, err := b.GH.Reactions.ListIssueCommentReactions(context.Background(), "acme", "widgets", c.ID(), nil)
			return err == nil && len(rs) > 0
		})
		b.Idle(t) // the board update it asked for is done
	}
	recheck() // the first command also opens the control issue
	b.F.ResetLog()
	recheck()
	writes := map[string]int{}
	for _, r := range b.F.Writes() {
		if r.Pattern != "POST /graphql" && r.Pattern != appkit.TokenRoute {
			writes[r.Pattern]++
		}
	}
	want := map[string]int{"POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions": 1}
	if diff := cmp.Diff(want, writes); diff != "" {
		t.Errorf("writes of an evaluation that changed nothing (-want +got):\n%s", diff)
	}
	b.BoardIssue(t) // still one board issue
}

// TestBoardShowsMergedAndCertified: the readback of a merge and its
// certificate each schedule a board update, so the board shows the story
// merged, then certified, without waiting for the reconcile sweep (an
// hour away here).
func TestBoardShowsMergedAndCertified(t *testing.T) {
	w := appkit.NewReadbackWorldWith(t, appkit.ReadbackYAML, nil, func(o *app.Options) { o.BoardDelay = 100 * time.Millisecond })
	b := &appkit.BoardWorld{Live: w.Live, Unit: w.Unit, GH: w.F.Client(w.Inst.Token())}
	merge := w.PR.Merge(ghfake.MergeCommit)
	b.WaitBoard(t, "🟢 merged")
	w.MainCI(merge, "success")
	appkit.WaitFor(t, 10*time.Second, "certificate", func() bool { return w.Latest(merge, checks.NameCertificate) != nil })
	b.WaitBoard(t, "✅ certified", merge[:12])
}
