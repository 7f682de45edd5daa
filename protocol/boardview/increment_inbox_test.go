package boardview

import (
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/closurerules"
)

// TestBuildClosedIncrementInInbox: a milestone closed while a story is
// open or not done is listed in the inbox, since its closure; one whose
// stories are all done, or an open one, is not.
func TestBuildClosedIncrementInInbox(t *testing.T) {
	done := func(n int) Issue { i := issue(n); i.Open = false; return i }
	tests := []struct {
		name   string
		open   bool
		issues []Issue
		want   string // "" when not listed
	}{
		{"closed with a story open", false, []Issue{done(1), issue(2)}, "#2 is open (open)"},
		{"closed with a story closed without a judgement", false, []Issue{done(1), done(3)}, "#3 is blocked"},
		{"closed, every story done", false, []Issue{done(1)}, ""},
		{"open with a story open", true, []Issue{done(1), issue(2)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := input(nil)
			in.Milestones = []Milestone{{Number: 4, Title: "M4", URL: "https://github.test/acme/app/milestone/4", Open: tt.open, ClosedAt: t0, Issues: tt.issues}}
			in.Closures = map[int]Closure{1: {Verdict: closurerules.Verdict{Number: 1, State: closurerules.Done}, ClosedAt: t0}}
			var got []InboxItem
			for _, it := range Build(in).Inbox {
				if it.Kind == "increment" {
					got = append(got, it)
				}
			}
			if tt.want == "" {
				if len(got) != 0 {
					t.Errorf("listed: %+v", got)
				}
				return
			}
			if len(got) != 1 || !strings.Contains(got[0].Question, tt.want) || got[0].Subject != "milestone 4 M4" || !got[0].Since.Equal(t0) ||
				got[0].URL != "https://github.test/acme/app/milestone/4" {
				t.Errorf("inbox %+v, want one item saying %q", got, tt.want)
			}
		})
	}
}
