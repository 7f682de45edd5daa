package board

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app/writer"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
)

// testBoards is Boards on a fresh database in t's temporary directory.
func testBoards(t *testing.T) *Boards {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "board.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	return &Boards{DB: db, Ledger: writer.DBLedger{DB: db}, Log: slog.New(slog.DiscardHandler)}
}

// pinHub is a board's GitHub whose board issue (#7, the App's) starts
// unpinned; PinIssue answers pinErrs in turn, then pins.
type pinHub struct {
	pinned  bool
	pinErrs []error
	pins    int
}

func (h *pinHub) Board(context.Context, string, string) (*gh.BoardRead, error) {
	return &gh.BoardRead{Labelled: []gh.BoardIssue{{NodeID: "I_7", Number: 7, Author: "aepgate[bot]", Pinned: h.pinned}}}, nil
}

func (h *pinHub) CreateBoardIssue(context.Context, string, string, string) (*gh.BoardIssue, error) {
	return nil, errors.New("the board issue exists")
}

func (h *pinHub) PinIssue(context.Context, string) error {
	h.pins++
	if len(h.pinErrs) > 0 {
		err := h.pinErrs[0]
		h.pinErrs = h.pinErrs[1:]
		return err
	}
	h.pinned = true
	return nil
}

func (h *pinHub) EditIssueBody(context.Context, string, string, int, string) error { return nil }

// TestBoardPinIsRetriedUntilGitHubAnswers: a pin lost on the way (a 502)
// fails the update and the next one pins; a pin GitHub refuses (it pins at
// most three issues) is recorded and never asked again, so an unpinned
// board costs no write per update.
func TestBoardPinIsRetriedUntilGitHubAnswers(t *testing.T) {
	tests := []struct {
		name      string
		errs      []error
		wantErrs  []bool // whether each of three updates fails
		wantPins  int
		wantFinal bool
	}{
		{"lost on the way", []error{errors.New("502 Bad Gateway")}, []bool{true, false, false}, 2, true},
		{"refused", []error{&gh.GraphQLError{Messages: []string{"You can't pin more than 3 issues"}}}, []bool{false, false, false}, 1, false},
		{"pinned at once", nil, []bool{false, false, false}, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := testBoards(t)
			hub := &pinHub{pinErrs: tt.errs}
			for i, wantErr := range tt.wantErrs {
				err := b.Keep(context.Background(), hub, "acme", "widgets", time.Now(), AuthoredBy("aepgate[bot]"), b.Log)
				if (err != nil) != wantErr {
					t.Errorf("update %d: err %v, want failure %v", i+1, err, wantErr)
				}
			}
			if hub.pins != tt.wantPins || hub.pinned != tt.wantFinal {
				t.Errorf("pin asked %d times, pinned %v; want %d, %v", hub.pins, hub.pinned, tt.wantPins, tt.wantFinal)
			}
		})
	}
}
