package app_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// burstComments is how many comments a bot posts on one pull request in
// TestCommentBurstCoalesced; burstCommands of them are an owner's
// commands.
const (
	burstComments = 500
	burstCommands = 3
)

// TestCommentBurstCoalesced: 500 comments on one pull request arrive at
// once, 3 of them (among the newest 100, which every snapshot reads) an
// owner's /aep recheck. The 497 that ask nothing but a new judgement
// coalesce into at most 2 evaluations (one once the burst paused, and a
// follow-up for those that came while it ran), so the burst costs at most
// 2 + 3 evaluations and their GitHub reads; each command is answered
// exactly once. The negative control coalesces nothing: the burst then
// costs an evaluation per comment.
func TestCommentBurstCoalesced(t *testing.T) {
	for _, control := range []bool{false, true} {
		name := "coalesced"
		if control {
			name = "negative control: not coalesced"
		}
		t.Run(name, func(t *testing.T) {
			g := newGatesWorldOpts(t, func(o *app.Options) {
				o.CoalesceDelay = 5 * time.Second
				if control {
					o.Seams.Coalesce = func(string, route.Work) bool { return false }
				}
			})
			perEval := g.readsOfOneEvaluation(t)
			before := g.ledgerRows(t, "check_run:aepgate/gates")
			g.F.CollectWebhooks(appkit.Secret, g.GHApp)
			sent := len(g.F.Deliveries())
			var commands []*ghfake.Comment
			for i := range burstComments {
				// The commands are among the newest 100 comments, which every
				// snapshot reads (older ones only down to the thread's mark).
				if i >= burstComments-100 && i%40 == 10 && len(commands) < burstCommands {
					commands = append(commands, g.pr.Comment("olivia", "/aep recheck"))
					continue
				}
				g.pr.Comment("ci-bot", fmt.Sprintf("Build %d passed.\n\n> see the log", i))
			}
			g.F.ResetLog()
			start := time.Now()
			g.sendAll(t, g.F.Deliveries()[sent:])
			acked := time.Now()
			limit := 2 + burstCommands
			if control {
				appkit.WaitFor(t, 60*time.Second, "more evaluations than the coalesced bound", func() bool {
					return g.ledgerRows(t, "check_run:aepgate/gates")-before > limit
				})
				t.Logf("negative control: over %d evaluations for the burst", limit)
				return
			}
			// Every command is answered by its delivery's job: once no
			// delivery or rejudge job is left to run, each answer is written.
			g.waitIdle(t)
			t.Logf("the burst was acknowledged in %v, its jobs had run %v later", acked.Sub(start).Round(time.Millisecond), time.Since(acked).Round(time.Millisecond))
			evals := g.ledgerRows(t, "check_run:aepgate/gates") - before
			reads := g.F.Stats().Reads
			t.Logf("%d comments: %d evaluations, %d GitHub reads (one evaluation reads %d)", burstComments, evals, reads, perEval)
			if evals > limit {
				t.Errorf("the burst cost %d evaluations, want at most %d", evals, limit)
			}
			if reads > limit*perEval {
				t.Errorf("the burst cost %d reads, want at most %d (%d evaluations of %d)", reads, limit*perEval, limit, perEval)
			}
			for _, c := range commands {
				if diff := cmp.Diff([]string{"+1"}, g.reactions(t, c.ID())); diff != "" {
					t.Errorf("reactions on command %d (-want +got):\n%s", c.ID(), diff)
				}
				if n := g.commandRows(t, c.ID()); n != 1 {
					t.Errorf("command %d has %d ledger rows, want 1 (answered once)", c.ID(), n)
				}
			}
		})
	}
}

// readsOfOneEvaluation is how many GitHub reads one owner's recheck costs.
func (g *gatesWorld) readsOfOneEvaluation(t *testing.T) int {
	t.Helper()
	g.settle(t)
	g.F.ResetLog()
	g.settle(t)
	return g.F.Stats().Reads
}

// sendAll sends the collected deliveries to the App, 16 at a time; one
// not acknowledged is redelivered (up to 3 times, as an operator would
// from the App's settings), and fails the test after that.
func (g *gatesWorld) sendAll(t *testing.T, ds []ghfake.Delivery) {
	t.Helper()
	sem := make(chan struct{}, 16)
	var wg sync.WaitGroup
	for _, d := range ds {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			status := 0
			for range 3 {
				if status = g.sendOne(t, d); status < 300 {
					return
				}
			}
			t.Errorf("delivery %s answered %d three times", d.GUID, status)
		})
	}
	wg.Wait()
}

// sendOne sends d and returns the status (0: no answer).
func (g *gatesWorld) sendOne(t *testing.T, d ghfake.Delivery) int {
	req, err := d.Request(g.Base + "/webhook")
	if err != nil {
		t.Error(err)
		return 0
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Logf("deliver %s: %v", d.GUID, err)
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// waitIdle waits until no delivery or rejudge job waits or runs. What
// it waits for is 500 delivery jobs, three evaluations of a 500-comment
// pull request, the 5 s pause the burst's rejudge waits for, and its
// evaluations: on a loaded 2-core machine that took 30 to 50 s, so the
// bound is 2 minutes (it only ends a test that would hang).
func (g *gatesWorld) waitIdle(t *testing.T) {
	t.Helper()
	kinds := []string{queue.Delivery{}.Kind(), queue.Rejudge{}.Kind()}
	appkit.WaitFor(t, 2*time.Minute, "the queue to drain", func() bool {
		var n int
		err := g.App.Store().SQL.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM river_job WHERE kind IN ('`+strings.Join(kinds, "','")+`')
			AND state NOT IN ('completed', 'cancelled', 'discarded')`).Scan(&n)
		return err == nil && n == 0
	})
}
