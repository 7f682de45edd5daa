package appkit

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app/board"
	"github.com/aepgate/aepgate/app/closure"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/closurerules"
)

// CloseAnswer is how the App answered comment id: its reactions and its
// replies (those starting with the close reply marker).
func (w *ClosureWorld) CloseAnswer(id int64) (reactions []string, replies []string) {
	for _, c := range w.API.Comments() {
		if c.ID == id {
			reactions = c.Reactions
		}
		if strings.HasPrefix(c.Body, closure.ReplyMarker(id)) {
			replies = append(replies, c.Body)
		}
	}
	return reactions, replies
}

// WaitAnswered waits for comment id's reaction want ("+1" or "-1") and
// then checks it got exactly one, and one reply holding why (none when
// why is empty).
func (w *ClosureWorld) WaitAnswered(t *testing.T, id int64, want, why string) {
	t.Helper()
	WaitFor(t, 10*time.Second, "the answer to comment "+want, func() bool {
		r, _ := w.CloseAnswer(id)
		return slices.Contains(r, want)
	})
	w.Quiet(t)
	r, replies := w.CloseAnswer(id)
	if len(r) != 1 {
		t.Errorf("comment %d: reactions %v, want one %s", id, r, want)
	}
	switch {
	case why == "" && len(replies) != 0:
		t.Errorf("comment %d: an accepted command got replies: %q", id, replies)
	case why != "" && (len(replies) != 1 || !strings.Contains(replies[0], why)):
		t.Errorf("comment %d: replies %q, want one holding %q", id, replies, why)
	}
}

// ClosureWorld: olivia owns the repository, carl coordinates; story #api
// (medium risk) blocks #export, whose attempt is open.
type ClosureWorld struct {
	*Live
	API, Export *ghfake.Issue
	Head        string
}

// ClosureConfig: olivia owns the repository, carl coordinates.
const ClosureConfig = "version: 1\nowners: [olivia]\ncoordinators: [carl]\n"

// WaitUnit waits for the attempt's aepgate/work-unit to conclude want with
// a summary holding text.
func (w *ClosureWorld) WaitUnit(t *testing.T, want, text string) {
	t.Helper()
	ok := WaitUntil(10*time.Second, func() bool {
		r := w.WorkUnitRun(w.Head)
		return r != nil && r.Conclusion == want && strings.Contains(r.Summary, text)
	})
	if !ok {
		r := w.WorkUnitRun(w.Head)
		if r == nil {
			t.Fatalf("no %s run, want %s", "aepgate/work-unit", want)
		}
		t.Fatalf("aepgate/work-unit %s, want %s with %q:\n%s", r.Conclusion, want, text, r.Summary)
	}
}

// ClosureComments are the App's closure comments on is.
func ClosureComments(is *ghfake.Issue) int {
	n := 0
	for _, c := range is.Comments() {
		if strings.HasPrefix(c.Body, verdict.ClosureMarker) {
			n++
		}
	}
	return n
}

// Certify keeps, as the App does when it writes a certificate, a merged
// and certified attempt of w's dependency #api.
func (w *ClosureWorld) Certify(t *testing.T) {
	t.Helper()
	at, err := json.Marshal(closurerules.Attempt{PR: 90, MergeSHA: strings.Repeat("b", 40), CertificateSHA256: strings.Repeat("c", 64), MergePassed: true, ReadbackPassed: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.App.Store().SaveUnitEvidence(t.Context(), "acme/widgets", w.API.Number(), 90, at, time.Now()); err != nil {
		t.Fatal(err)
	}
}

// BoardSays reports whether a board fact of the repository holds text.
func (w *ClosureWorld) BoardSays(t *testing.T, text string) bool {
	t.Helper()
	facts, err := w.App.Store().BoardFacts(t.Context(), "acme/widgets")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range facts {
		if strings.Contains(string(f), text) {
			return true
		}
	}
	return false
}

// KeptBoard runs one board update of the world's repository now and
// returns the board the App kept.
func (w *Live) KeptBoard(t *testing.T) boardview.Board {
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
	if err := w.App.Boards().Keep(ctx, in, "acme", "widgets", time.Now(), board.AuthoredBy(login), Logger(t)); err != nil {
		t.Fatal(err)
	}
	b, ok, err := w.App.Board(ctx, "acme/widgets")
	if err != nil || !ok {
		t.Fatalf("no board kept: %v", err)
	}
	return b
}
