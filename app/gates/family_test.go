package gates

import (
	"testing"

	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/google/go-cmp/cmp"
)

// TestConversationCoalesces: of the conversation family's work only what
// asks for nothing but a new judgement of a pull request coalesces; a comment that may carry a command or a gate
// block (under any prefix a config allows) is judged on its own, so it is
// answered.
func TestConversationCoalesces(t *testing.T) {
	comment := func(body string) pull.JudgePR {
		return pull.JudgePR{PR: 2, Answer: 7, Siblings: true, Witness: &verdict.Witness{Thread: 2, Comment: snapshot.Comment{ID: 7, Body: body}}}
	}
	for _, tt := range []struct {
		name string
		w    route.Work
		want bool
	}{
		{"check re-run", pull.JudgePR{PR: 2}, true},
		{"plain comment", comment("Build 12 passed.\n\n> quoted text"), true},
		{"command", comment("/aep hold freeze"), false},
		{"command under another prefix", comment("thanks\n/gate resume"), false},
		{"indented command", comment("  /aep status"), false},
		{"quoted command", comment("> /aep hold"), false},
		{"gate block", comment("```aep-gate\nid: g1\n```"), false},
		{"tilde fence", comment("~~~aep-gate\n~~~"), false},
		{"a review to answer", pull.JudgePR{PR: 2, Answer: 9}, false},
		{"witness of another item", pull.JudgePR{PR: 2, Answer: 9, Witness: &verdict.Witness{Comment: snapshot.Comment{ID: 7}}}, false},
		{"not a judgement", pull.JudgeOpen{}, false},
		{"answer on an issue", AnswerOn{Thread: 3, Answer: 7}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := (route.Table{ConversationFamily()}).Coalesce("issue_comment", []route.Work{tt.w}, func(route.Work) bool { return true })
			want := []route.Work{tt.w}
			if j, ok := tt.w.(pull.JudgePR); ok && tt.want {
				want = []route.Work{pull.Rejudge(j)}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("coalesced (-want +got):\n%s", diff)
			}
		})
	}
}
