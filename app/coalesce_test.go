package app

import (
	"testing"

	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/route"
)

// TestCoalesceKeepsOrder: coalesce replaces only the coalescible work of
// the coalesced events, in place; a pull request's own event is judged at
// once; the negative-control option keeps all of it.
func TestCoalesceKeepsOrder(t *testing.T) {
	ws := []route.Work{pull.RecordPush{}, pull.JudgePR{PR: 2}, pull.JudgeOpen{Issue: 1}}
	a := &App{features: features{families: Families()}}
	if _, ok := a.coalesce("pull_request", ws)[1].(pull.JudgePR); !ok {
		t.Error("a pull_request event's judgement was coalesced")
	}
	got := a.coalesce("workflow_run", ws)
	if _, ok := got[1].(pull.Rejudge); !ok || len(got) != 3 {
		t.Fatalf("coalesce = %#v, want the JudgePR replaced by a Rejudge", got)
	}
	if _, ok := got[0].(pull.RecordPush); !ok {
		t.Errorf("first work = %#v, want RecordPush kept first", got[0])
	}
	a.opts.Seams.Coalesce = func(string, route.Work) bool { return false }
	if _, ok := a.coalesce("workflow_run", ws)[1].(pull.JudgePR); !ok {
		t.Error("with coalescing off the JudgePR was replaced")
	}
}
