package boardview

import (
	"testing"
	"time"
)

func TestHealthAt(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	rule := StallRule{SuspectAfter: 15 * time.Minute, StalledAfter: 30 * time.Minute}
	tests := []struct {
		name string
		age  time.Duration
		zero bool
		want Health
	}{
		{"just now", 0, false, Healthy},
		{"in the future", -time.Hour, false, Healthy},
		{"at suspect_after", 15 * time.Minute, false, Healthy},
		{"past suspect_after", 15*time.Minute + time.Second, false, Suspect},
		{"at stalled_after", 30 * time.Minute, false, Suspect},
		{"past stalled_after", 30*time.Minute + time.Second, false, Stalled},
		{"days", 72 * time.Hour, false, Stalled},
		{"no evidence", 0, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			last := now.Add(-tt.age)
			if tt.zero {
				last = time.Time{}
			}
			if got := HealthAt(last, now, rule); got != tt.want {
				t.Errorf("HealthAt(age %s) = %q, want %q", tt.age, got, tt.want)
			}
		})
	}
}
