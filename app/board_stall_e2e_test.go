package app

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app/board"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	pboard "github.com/aepgate/aepgate/protocol/board"
)

// TestBoardStallHealth: an open attempt with no newer evidence is healthy
// up to stall.suspect_after, suspect up to stall.stalled_after and stalled
// beyond, on the board the App keeps (the config's durations, not the
// defaults).
func TestBoardStallHealth(t *testing.T) {
	w := newGhfakeWorldOpts(t, true, func(o *Options) { o.BoardDelay = 100 * time.Millisecond })
	w.repo.Commit("main", "config", map[string]string{".github/aepgate.yml": "version: 1\nowners: [olivia]\nstall:\n  suspect_after: 1h\n  stalled_after: 3h\n"})
	w.repo.Grant("olivia", "admin")
	ms := w.repo.CreateMilestone("Reports", "")
	unit := w.repo.OpenIssue("alice", "Export reports", contract("low", "product"), ghfake.InMilestone(ms))
	b := &boardWorld{ghfakeWorld: w, ms: ms, unit: unit, gh: w.f.Client(w.inst.Token())}
	pr := b.attempt("only")
	b.waitBoard(t, "/pull/"+strconv.Itoa(pr.Number()))
	b.idle(t) // evaluations and board jobs are done
	in, err := b.app.clients.Installation(b.inst.ID)
	if err != nil {
		t.Fatal(err)
	}
	ctx, log := context.Background(), testLogger(t)
	login, err := b.app.clients.AppLogin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for _, tt := range []struct {
		after time.Duration
		want  pboard.Health
	}{
		{50 * time.Minute, pboard.Healthy},
		{70 * time.Minute, pboard.Suspect},
		{2*time.Hour + 50*time.Minute, pboard.Suspect},
		{3*time.Hour + 10*time.Minute, pboard.Stalled},
	} {
		t.Run(tt.after.String(), func(t *testing.T) {
			if err := b.app.boards().Keep(ctx, in, "acme", "widgets", start.Add(tt.after), board.AuthoredBy(login), log); err != nil {
				t.Fatal(err)
			}
			kept, ok, err := b.app.Board(ctx, "acme/widgets")
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
