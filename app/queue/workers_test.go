package queue

import (
	"testing"
	"time"

	"github.com/riverqueue/river/rivertype"
)

// TestRetryPolicy: the delay doubles from base per attempt, within ±20 %,
// and never passes the cap.
func TestRetryPolicy(t *testing.T) {
	p := &retryPolicy{base: time.Second, max: 10 * time.Second}
	tests := []struct {
		attempt int
		want    time.Duration
	}{{1, time.Second}, {2, 2 * time.Second}, {3, 4 * time.Second}, {4, 8 * time.Second}, {5, 10 * time.Second}, {60, 10 * time.Second}}
	for _, tt := range tests {
		got := time.Until(p.NextRetry(&rivertype.JobRow{Attempt: tt.attempt}))
		if lo, hi := time.Duration(float64(tt.want)*0.79), time.Duration(float64(tt.want)*1.21); got < lo || got > hi {
			t.Errorf("attempt %d: retry in %v, want %v ± 20 %%", tt.attempt, got, tt.want)
		}
	}
}
