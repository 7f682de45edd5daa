package app

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
)

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
			w := newGhfakeWorld(t)
			hub := &pinHub{pinErrs: tt.errs}
			for i, wantErr := range tt.wantErrs {
				err := w.app.keepBoard(context.Background(), hub, "acme", "widgets", time.Now(), authoredBy("aepgate[bot]"), slog.New(slog.DiscardHandler))
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
