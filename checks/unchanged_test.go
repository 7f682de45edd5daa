package checks

import (
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/snapshot"
)

func TestUnchanged(t *testing.T) {
	run := Run{Name: "aepgate/x", HeadSHA: appSHA(1), ExternalID: "e", Conclusion: ConclusionFailure, Title: "t", Summary: "s", Text: "x"}
	shown := snapshot.ExistingRun{Name: "aepgate/x", Status: "completed", Conclusion: "failure", Title: "t", Summary: "s", Text: "x", ExternalID: "e"}
	long := run
	long.Summary = strings.Repeat("line\n", MaxSummaryBytes/4)
	longShown := shown
	longShown.Summary = Fit(long).Summary
	tests := []struct {
		name string
		old  snapshot.ExistingRun
		run  Run
		want bool
	}{
		{"same", shown, run, true},
		{"conclusion differs", with(shown, func(o *snapshot.ExistingRun) { o.Conclusion = "success" }), run, false},
		{"status differs", with(shown, func(o *snapshot.ExistingRun) { o.Status = "in_progress" }), run, false},
		{"title differs", with(shown, func(o *snapshot.ExistingRun) { o.Title = "u" }), run, false},
		{"summary differs", with(shown, func(o *snapshot.ExistingRun) { o.Summary = "s2" }), run, false},
		{"text differs", with(shown, func(o *snapshot.ExistingRun) { o.Text = "" }), run, false},
		{"external ID differs", with(shown, func(o *snapshot.ExistingRun) { o.ExternalID = "f" }), run, false},
		{"untitled run shows its name", with(shown, func(o *snapshot.ExistingRun) { o.Title = "aepgate/x" }), withRun(run, func(r *Run) { r.Title = "" }), true},
		{"actions are never compared", shown, withRun(run, func(r *Run) { r.Actions = []Action{{Label: "a", Description: "d", Identifier: "i"}} }), false},
		{"details URL set and differs", shown, withRun(run, func(r *Run) { r.DetailsURL = "https://example.com" }), false},
		{"compared as Fit cuts it", longShown, long, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Unchanged(tt.old, tt.run); got != tt.want {
				t.Errorf("Unchanged = %v, want %v", got, tt.want)
			}
		})
	}
}

func with(o snapshot.ExistingRun, f func(*snapshot.ExistingRun)) snapshot.ExistingRun {
	f(&o)
	return o
}

func withRun(r Run, f func(*Run)) Run {
	f(&r)
	return r
}
