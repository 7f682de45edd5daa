package pull

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/internal/gh"
)

// TestFanoutCallsWaitBehindOwnWork: a fanout job's GitHub calls carry
// gh.PriorityFanout, so an installation's budget sends a delivery's own
// calls (gh.PriorityOwn) first.
func TestFanoutCallsWaitBehindOwnWork(t *testing.T) {
	var got gh.Priority = -1
	j := &Jobs{
		Run: func(ctx context.Context, _ route.Where, _ []route.Work, _ *slog.Logger) error {
			got = gh.PriorityOf(ctx)
			return nil
		},
		Job: func(string, string, time.Duration) {}, Log: slog.New(slog.DiscardHandler),
	}
	if err := j.Fanout(context.Background(), queue.Fanout{Installation: 1, Owner: "acme", Repo: "app"}); err != nil {
		t.Fatal(err)
	}
	if got != gh.PriorityFanout {
		t.Errorf("a fanout's calls have priority %s, want %s", got, gh.PriorityFanout)
	}
}

// TestJudgingOpenPullRequestsIsFanout: judging a repository's open pull
// requests runs at gh.PriorityFanout whatever asked for it, except the
// sweep, which stays background.
func TestJudgingOpenPullRequestsIsFanout(t *testing.T) {
	for _, tt := range []struct {
		from, want gh.Priority
	}{
		{gh.PriorityOwn, gh.PriorityFanout},
		{gh.PriorityNormal, gh.PriorityFanout},
		{gh.PriorityFanout, gh.PriorityFanout},
		{gh.PriorityBackground, gh.PriorityBackground},
	} {
		if got := gh.PriorityOf(asFanout(gh.WithPriority(context.Background(), tt.from))); got != tt.want {
			t.Errorf("from %s: %s, want %s", tt.from, got, tt.want)
		}
	}
}
