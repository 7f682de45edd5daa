package board

import (
	"testing"
	"time"
)

func TestBoardSlot(t *testing.T) {
	delay := 5 * time.Second
	base := time.Unix(1_000_000, 0) // a window boundary: 1,000,000 s is a multiple of 5 s
	tests := []struct {
		name    string
		at      time.Time
		wantEnd time.Time
	}{
		{"at a window's start", base, base.Add(delay)},
		{"inside it", base.Add(3 * time.Second), base.Add(delay)},
		{"its last instant", base.Add(delay - time.Nanosecond), base.Add(delay)},
		{"the next window", base.Add(delay), base.Add(2 * delay)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			slot := Slot(tt.at, delay)
			if got := SlotEnd(slot, delay); !got.Equal(tt.wantEnd) {
				t.Errorf("window of %s ends %s, want %s", tt.at, got, tt.wantEnd)
			}
			if end := SlotEnd(slot, delay); !end.After(tt.at) {
				t.Errorf("the window ends at %s, not after %s", end, tt.at)
			}
		})
	}
}
