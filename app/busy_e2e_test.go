package app_test

import (
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
)

// TestHoldAfterBusyRefusal: while the edge's budget is full (as under the
// front-loading attack), an owner's `/aep hold` is refused 503 busy and
// GitHub does not send it again; the sweep that follows busy refusals
// (here 1 s after) applies the HOLD anyway. Its negative control does not
// sweep after busy refusals: 5 s on, the pull request's gates still pass.
func TestHoldAfterBusyRefusal(t *testing.T) {
	for _, tt := range []struct {
		name    string
		noSweep bool
		want    string
	}{
		{"swept", false, "action_required"},
		{"broken: no sweep after busy refusals", true, "success"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var full atomic.Bool
			g := appkit.NewGatesWorldOpts(t, func(o *app.Options) {
				o.BusySweep = time.Second
				o.Seams.NoBusySweep = tt.noSweep
				// While full is set, every body finds the budget full.
				o.Seams.Edge.Reserve = func(*http.Request, int64) int64 {
					if full.Load() {
						return webhook.MaxBuffered + 1
					}
					return 0
				}
			})
			// The setup's deliveries are judged by now; a later evaluation
			// would read the HOLD's comment whatever became of its delivery.
			time.Sleep(2 * time.Second)
			full.Store(true)
			hold := g.PR.Comment("olivia", "/aep hold release freeze")
			var status int
			for _, d := range g.F.Deliveries() {
				if d.Event == "issue_comment" {
					status = d.Status
				}
			}
			full.Store(false)
			if status != http.StatusServiceUnavailable {
				t.Fatalf("the HOLD's delivery was answered %d, want 503 busy", status)
			}
			start := time.Now()
			for appkit.ConclusionOf(g.Repo, g.PR.Head(), "aepgate/gates") == "success" && time.Since(start) < 5*time.Second {
				time.Sleep(50 * time.Millisecond)
			}
			got := appkit.ConclusionOf(g.Repo, g.PR.Head(), "aepgate/gates")
			t.Logf("gates %s %v after the refused HOLD", got, time.Since(start).Round(10*time.Millisecond))
			if got != tt.want {
				t.Errorf("gates %s after the refused HOLD (comment %d), want %s", got, hold.ID(), tt.want)
			}
		})
	}
}
