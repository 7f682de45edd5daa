package app

import (
	"testing"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// TestCoalescible: only work that asks for nothing but a new judgement of
// a pull request coalesces; a comment that may carry a command or a gate
// block (under any prefix a config allows) is judged on its own, so it is
// answered.
func TestCoalescible(t *testing.T) {
	comment := func(body string) judgePR {
		return judgePR{pr: 2, answer: 7, siblings: true, witness: &verdict.Witness{Thread: 2, Comment: snapshot.Comment{ID: 7, Body: body}}}
	}
	for _, tt := range []struct {
		name string
		w    work
		want bool
	}{
		{"check re-run", judgePR{pr: 2}, true},
		{"plain comment", comment("Build 12 passed.\n\n> quoted text"), true},
		{"command", comment("/aep hold freeze"), false},
		{"command under another prefix", comment("thanks\n/gate resume"), false},
		{"indented command", comment("  /aep status"), false},
		{"quoted command", comment("> /aep hold"), false},
		{"gate block", comment("```aep-gate\nid: g1\n```"), false},
		{"tilde fence", comment("~~~aep-gate\n~~~"), false},
		{"a review to answer", judgePR{pr: 2, answer: 9}, false},
		{"witness of another item", judgePR{pr: 2, answer: 9, witness: &verdict.Witness{Comment: snapshot.Comment{ID: 7}}}, false},
		{"not a judgement", judgeOpen{}, false},
		{"answer on an issue", answerOn{thread: 3, answer: 7}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := coalescible(tt.w); got != tt.want {
				t.Errorf("coalescible = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestCoalesceKeepsOrder: coalesce replaces only the coalescible work of
// the coalesced events, in place; a pull request's own event is judged at
// once; the negative-control option keeps all of it.
func TestCoalesceKeepsOrder(t *testing.T) {
	ws := []work{recordPush{}, judgePR{pr: 2}, judgeOpen{issue: 1}}
	a := &App{}
	if _, ok := a.coalesce("pull_request", ws)[1].(judgePR); !ok {
		t.Error("a pull_request event's judgement was coalesced")
	}
	got := a.coalesce("workflow_run", ws)
	if _, ok := got[1].(rejudge); !ok || len(got) != 3 {
		t.Fatalf("coalesce = %#v, want the judgePR replaced by a rejudge", got)
	}
	if _, ok := got[0].(recordPush); !ok {
		t.Errorf("first work = %#v, want recordPush kept first", got[0])
	}
	a.opts.coalesce = func(string, work) bool { return false }
	if _, ok := a.coalesce("workflow_run", ws)[1].(judgePR); !ok {
		t.Error("with coalescing off the judgePR was replaced")
	}
}
