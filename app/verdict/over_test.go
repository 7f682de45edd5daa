package verdict

import (
	"testing"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// TestOver: an update goes over the snapshot's run only when the snapshot
// read the head's runs, the run is the newest of its name at run's head,
// with run's external ID, and its annotation count was read; otherwise the
// publisher looks it up.
func TestOver(t *testing.T) {
	const head = "beef"
	run := checks.Run{Name: checks.NameGates, HeadSHA: head, ExternalID: "gates"}
	old := snapshot.ExistingRun{ID: 7, Name: checks.NameGates, ExternalID: "gates", Annotations: 2, AnnotationsKnown: true}
	tests := []struct {
		name   string
		pull   snapshot.Pull
		run    checks.Run
		wantID int64 // 0: no run to update over
	}{
		{"the newest run of its name", snapshot.Pull{HeadSHA: head, RunsKnown: true, Runs: []snapshot.ExistingRun{{ID: 3, Name: checks.NameGates, ExternalID: "gates", AnnotationsKnown: true}, old}}, run, 7},
		{"runs not read", snapshot.Pull{HeadSHA: head, Runs: []snapshot.ExistingRun{old}}, run, 0},
		{"another head", snapshot.Pull{HeadSHA: "cafe", RunsKnown: true, Runs: []snapshot.ExistingRun{old}}, run, 0},
		{"no run of its name", snapshot.Pull{HeadSHA: head, RunsKnown: true}, run, 0},
		{"the newest has another external id", snapshot.Pull{HeadSHA: head, RunsKnown: true, Runs: []snapshot.ExistingRun{old, {ID: 9, Name: checks.NameGates, ExternalID: "other", AnnotationsKnown: true}}}, run, 0},
		{"annotation count not read", snapshot.Pull{HeadSHA: head, RunsKnown: true, Runs: []snapshot.ExistingRun{{ID: 7, Name: checks.NameGates, ExternalID: "gates"}}}, run, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got int64
			if o := Over(&tt.pull, tt.run); o != nil {
				got = o.ID
			}
			if got != tt.wantID {
				t.Errorf("Over = run %d, want %d", got, tt.wantID)
			}
		})
	}
}
