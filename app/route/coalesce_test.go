package route

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
	comment := func(body string) JudgePR {
		return JudgePR{PR: 2, Answer: 7, Siblings: true, Witness: &verdict.Witness{Thread: 2, Comment: snapshot.Comment{ID: 7, Body: body}}}
	}
	for _, tt := range []struct {
		name string
		w    Work
		want bool
	}{
		{"check re-run", JudgePR{PR: 2}, true},
		{"plain comment", comment("Build 12 passed.\n\n> quoted text"), true},
		{"command", comment("/aep hold freeze"), false},
		{"command under another prefix", comment("thanks\n/gate resume"), false},
		{"indented command", comment("  /aep status"), false},
		{"quoted command", comment("> /aep hold"), false},
		{"gate block", comment("```aep-gate\nid: g1\n```"), false},
		{"tilde fence", comment("~~~aep-gate\n~~~"), false},
		{"a review to answer", JudgePR{PR: 2, Answer: 9}, false},
		{"witness of another item", JudgePR{PR: 2, Answer: 9, Witness: &verdict.Witness{Comment: snapshot.Comment{ID: 7}}}, false},
		{"not a judgement", JudgeOpen{}, false},
		{"answer on an issue", AnswerOn{Thread: 3, Answer: 7}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := Coalescible("issue_comment", tt.w); got != tt.want {
				t.Errorf("Coalescible = %v, want %v", got, tt.want)
			}
		})
	}
}
