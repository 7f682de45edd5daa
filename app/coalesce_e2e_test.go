package app_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/app"
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
			g := appkit.NewGatesWorldOpts(t, func(o *app.Options) {
				o.CoalesceDelay = 5 * time.Second
				if control {
					o.Seams.Coalesce = func(string, route.Work) bool { return false }
				}
			})
			perEval := g.ReadsOfOneEvaluation(t)
			before := g.LedgerRows(t, "check_run:aepgate/gates")
			g.F.CollectWebhooks(appkit.Secret, g.GHApp)
			sent := len(g.F.Deliveries())
			var commands []*ghfake.Comment
			for i := range burstComments {
				// The commands are among the newest 100 comments, which every
				// snapshot reads (older ones only down to the thread's mark).
				if i >= burstComments-100 && i%40 == 10 && len(commands) < burstCommands {
					commands = append(commands, g.PR.Comment("olivia", "/aep recheck"))
					continue
				}
				g.PR.Comment("ci-bot", fmt.Sprintf("Build %d passed.\n\n> see the log", i))
			}
			g.F.ResetLog()
			start := time.Now()
			g.SendAll(t, g.F.Deliveries()[sent:])
			acked := time.Now()
			limit := 2 + burstCommands
			if control {
				appkit.WaitFor(t, 60*time.Second, "more evaluations than the coalesced bound", func() bool {
					return g.LedgerRows(t, "check_run:aepgate/gates")-before > limit
				})
				t.Logf("negative control: over %d evaluations for the burst", limit)
				return
			}
			// Every command is answered by its delivery's job: once no
			// delivery or rejudge job is left to run, each answer is written.
			g.WaitIdle(t)
			t.Logf("the burst was acknowledged in %v, its jobs had run %v later", acked.Sub(start).Round(time.Millisecond), time.Since(acked).Round(time.Millisecond))
			evals := g.LedgerRows(t, "check_run:aepgate/gates") - before
			reads := g.F.Stats().Reads
			t.Logf("%d comments: %d evaluations, %d GitHub reads (one evaluation reads %d)", burstComments, evals, reads, perEval)
			if evals > limit {
				t.Errorf("the burst cost %d evaluations, want at most %d", evals, limit)
			}
			if reads > limit*perEval {
				t.Errorf("the burst cost %d reads, want at most %d (%d evaluations of %d)", reads, limit*perEval, limit, perEval)
			}
			for _, c := range commands {
				if diff := cmp.Diff([]string{"+1"}, g.Reactions(t, c.ID())); diff != "" {
					t.Errorf("reactions on command %d (-want +got):\n%s", c.ID(), diff)
				}
				if n := g.CommandRows(t, c.ID()); n != 1 {
					t.Errorf("command %d has %d ledger rows, want 1 (answered once)", c.ID(), n)
				}
			}
		})
	}
}
