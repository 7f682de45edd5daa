package queue

import (
	"log/slog"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestTuningDefaults: zero values take the defaults, set ones stay, and
// Config carries each knob to the queue's Config under its name there.
func TestTuningDefaults(t *testing.T) {
	tests := []struct {
		name string
		in   Tuning
		want Config
	}{
		{"zero", Tuning{}, Config{Workers: DefaultWorkers, JobTimeout: DefaultJobTimeout, RescueAfter: DefaultRescueAfter,
			ReconcileEvery: DefaultReconcileEvery, RetryBase: DefaultRetryBase, MaxRetryDelay: MaxRetryDelay, PollInterval: DefaultPollInterval}},
		{"set", Tuning{RetryBase: time.Second, RetryMax: time.Minute, ReconcileEvery: 3 * time.Minute, JobTimeout: 4 * time.Second,
			RescueAfter: 5 * time.Second, Workers: 3, PollInterval: time.Millisecond},
			Config{Workers: 3, JobTimeout: 4 * time.Second, RescueAfter: 5 * time.Second, ReconcileEvery: 3 * time.Minute,
				RetryBase: time.Second, MaxRetryDelay: time.Minute, PollInterval: time.Millisecond}},
		{"negative workers", Tuning{Workers: -1}, Config{Workers: DefaultWorkers, JobTimeout: DefaultJobTimeout, RescueAfter: DefaultRescueAfter,
			ReconcileEvery: DefaultReconcileEvery, RetryBase: DefaultRetryBase, MaxRetryDelay: MaxRetryDelay, PollInterval: DefaultPollInterval}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.in.SetDefaults()
			got := tt.in.Config(time.Hour, slog.New(slog.DiscardHandler))
			if got.ReplayMemory != time.Hour || got.Yield == nil || got.Logger == nil {
				t.Errorf("Config lost its replay memory, yield or logger: %+v", got)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(Config{}, "ReplayMemory", "Yield", "Logger")); diff != "" {
				t.Errorf("Config (-want +got):\n%s", diff)
			}
		})
	}
}
