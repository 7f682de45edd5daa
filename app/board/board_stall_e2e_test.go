package board_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/board"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/boardview"
)

// TestBoardStallHealth: an open attempt with no newer evidence is healthy
// up to stall.suspect_after, suspect up to stall.stalled_after and stalled
// beyond, on the board the App keeps (the config's durations, not the
// defaults).
func TestBoardStallHealth(t *testing.T) {
	w := appkit.NewLiveOpts(t, true, func(o *app.Options) { o.BoardDelay = 100 * time.Millisecond })
	w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": "version: 1\nowners: [olivia]\nstall:\n  suspect_after: 1h\n  stalled_after: 3h\n"})
	w.Repo.Grant("olivia", "admin")
	ms := w.Repo.CreateMilestone("Reports", "")
	unit := w.Repo.OpenIssue("alice", "Export reports", appkit.Contract("low", "product"), ghfake.InMilestone(ms))
	b := &appkit.BoardWorld{Live: w, MS: ms, Unit: unit, GH: w.F.Client(w.Inst.Token())}
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
	start := time.Now()
	for _, tt := range []struct {
		after time.Duration
		want  boardview.Health
	}{
		{50 * time.Minute, boardview.Healthy},
		{70 * time.Minute, boardview.Suspect},
		{2*time.Hour + 50*time.Minute, boardview.Suspect},
		{3*time.Hour + 10*time.Minute, boardview.Stalled},
	} {
		t.Run(tt.after.String(), func(t *testing.T) {
			if err := b.App.Boards().Keep(ctx, in, "acme", "widgets", start.Add(tt.after), board.AuthoredBy(login), log); err != nil {
				t.Fatal(err)
			}
			kept, ok, err := b.App.Board(ctx, "acme/widgets")
			if err != nil || !ok {
				t.Fatalf("App.Board = %v, %v", ok, err)
			}
			as := kept.Increments[0].Stories[0].Attempts
			if len(as) != 1 || as[0].Health != tt.want {
				t.Errorf("after %s the attempt is %+v, want %s", tt.after, as, tt.want)
			}
		})
	}
}
