package app_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app/board"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	pboard "github.com/aepgate/aepgate/protocol/board"
	"github.com/aepgate/aepgate/protocol/closure"
)

// keptBoard runs one board update of the closure world now and returns
// the board the App kept.
func (w *closureWorld) keptBoard(t *testing.T) pboard.Board {
	t.Helper()
	ctx := context.Background()
	in, err := w.App.GitHub().Installation(w.Inst.ID)
	if err != nil {
		t.Fatal(err)
	}
	login, err := w.App.GitHub().AppLogin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.App.Boards().Keep(ctx, in, "acme", "widgets", time.Now(), board.AuthoredBy(login), appkit.Logger(t)); err != nil {
		t.Fatal(err)
	}
	b, ok, err := w.App.Board(ctx, "acme/widgets")
	if err != nil || !ok {
		t.Fatalf("no board kept: %v", err)
	}
	return b
}

// storyOf is story n of the board's first increment.
func storyOf(t *testing.T, b pboard.Board, n int) pboard.Story {
	t.Helper()
	for _, inc := range b.Increments {
		for _, s := range inc.Stories {
			if s.Number == n {
				return s
			}
		}
	}
	t.Fatalf("story #%d not on the board", n)
	return pboard.Story{}
}

// TestClosedWithoutEvidenceCountsAgainstWIPAndInbox: with
// lanes_per_increment 1, carl's closure of #api without evidence keeps
// #api in its lane, so #export's attempt is over the WIP limit (besides
// its dependency); the board shows #api blocked, not done, and lists it in
// its inbox. The negative control judges closures with the old rule (any
// closure counts as done): the attempt passes, the board shows #api done
// and its inbox is empty.
func TestClosedWithoutEvidenceCountsAgainstWIPAndInbox(t *testing.T) {
	cfg := closureConfig + "limits:\n  lanes_per_increment: 1\n"
	tests := []struct {
		name      string
		rules     *closure.Rules
		wantUnit  string
		wantText  string
		wantState pboard.State
		wantInbox int
	}{
		{"closure rule", nil, "failure", "the increment's open lanes are #%d (closed without evidence by carl)", pboard.StateBlocked, 1},
		{"negative control: any closure counts", anyClosureCounts(), "success", "", pboard.StateDone, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newClosureWorld(t, cfg, tt.rules)
			w.api.Close("carl")
			text := tt.wantText
			if text != "" {
				text = fmt.Sprintf(text, w.api.Number())
			}
			w.waitUnit(t, tt.wantUnit, text)
			w.Quiet(t)
			b := w.keptBoard(t)
			if s := storyOf(t, b, w.api.Number()); s.State != tt.wantState {
				t.Errorf("#api on the board: %s (%s), want %s", s.State, s.Reason, tt.wantState)
			}
			n := 0
			for _, it := range b.Inbox {
				if it.Kind == "closure" && strings.HasSuffix(it.URL, fmt.Sprintf("/issues/%d", w.api.Number())) {
					n++
				}
			}
			if n != tt.wantInbox {
				t.Errorf("%d inbox items for #api's closure, want %d: %+v", n, tt.wantInbox, b.Inbox)
			}
		})
	}
}
