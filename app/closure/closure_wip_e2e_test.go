package closure_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/closurerules"
)

// storyOf is story n of the board's first increment.
func storyOf(t *testing.T, b boardview.Board, n int) boardview.Story {
	t.Helper()
	for _, inc := range b.Increments {
		for _, s := range inc.Stories {
			if s.Number == n {
				return s
			}
		}
	}
	t.Fatalf("story #%d not on the board", n)
	return boardview.Story{}
}

// TestClosedWithoutEvidenceCountsAgainstWIPAndInbox: with
// lanes_per_increment 1, carl's closure of #api without evidence keeps
// #api in its lane, so #export's attempt is over the WIP limit (besides
// its dependency); the board shows #api blocked, not done, and lists it in
// its inbox. The negative control judges closures with the old rule (any
// closure counts as done): the attempt passes, the board shows #api done
// and its inbox is empty.
func TestClosedWithoutEvidenceCountsAgainstWIPAndInbox(t *testing.T) {
	cfg := appkit.ClosureConfig + "limits:\n  lanes_per_increment: 1\n"
	tests := []struct {
		name      string
		rules     *closurerules.Rules
		wantUnit  string
		wantText  string
		wantState boardview.State
		wantInbox int
	}{
		{"closure rule", nil, "failure", "the increment's open lanes are #%d (closed without evidence by carl)", boardview.StateBlocked, 1},
		{"negative control: any closure counts", anyClosureCounts(), "success", "", boardview.StateDone, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newClosureWorld(t, cfg, tt.rules)
			w.API.Close("carl")
			text := tt.wantText
			if text != "" {
				text = fmt.Sprintf(text, w.API.Number())
			}
			w.WaitUnit(t, tt.wantUnit, text)
			w.Quiet(t)
			b := w.KeptBoard(t)
			if s := storyOf(t, b, w.API.Number()); s.State != tt.wantState {
				t.Errorf("#api on the board: %s (%s), want %s", s.State, s.Reason, tt.wantState)
			}
			n := 0
			for _, it := range b.Inbox {
				if it.Kind == "closure" && strings.HasSuffix(it.URL, fmt.Sprintf("/issues/%d", w.API.Number())) {
					n++
				}
			}
			if n != tt.wantInbox {
				t.Errorf("%d inbox items for #api's closure, want %d: %+v", n, tt.wantInbox, b.Inbox)
			}
		})
	}
}
