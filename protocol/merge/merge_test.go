package merge

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var head = strings.Repeat("a", 40)

// ready is an input on which every condition holds.
func ready() Input {
	return Input{
		Head:     head,
		WorkUnit: Verdict{OK: true, Evidence: "work unit #3"},
		Audit:    Verdict{OK: true, Evidence: "PASS by carol at aaaaaaaaaaaa"},
		Required: []string{"ci", "lint"},
		Runs: []Run{
			{ID: 10, Workflow: "ci", Status: "COMPLETED", Conclusion: "SUCCESS"},
			{ID: 11, Workflow: "lint", Status: "completed", Conclusion: "success"},
		},
	}
}

func TestDecide(t *testing.T) {
	tests := []struct {
		name        string
		edit        func(*Input)
		wantReady   bool
		wantMissing map[string][]string
	}{
		{"everything holds", func(*Input) {}, true, nil},
		{"report problems", func(in *Input) { in.Report = []string{"PRESERVATION names an older head"} }, false,
			map[string][]string{"worker report": {"PRESERVATION names an older head"}}},
		{"work unit fails", func(in *Input) { in.WorkUnit = Verdict{Reasons: []string{"dependency #2 is open"}} }, false,
			map[string][]string{"work unit": {"dependency #2 is open"}}},
		{"a HOLD", func(in *Input) { in.Gates = []string{"HOLD: legal"} }, false, map[string][]string{"owner gates and HOLD": {"HOLD: legal"}}},
		{"a contract change", func(in *Input) { in.Contract = []string{"contract-pr2-aaaa"} }, false, map[string][]string{"contract paths": {"contract-pr2-aaaa"}}},
		{"audit missing", func(in *Input) { in.Audit = Verdict{} }, false, map[string][]string{"audit": {"audit does not hold"}}},
		{"no run of a workflow", func(in *Input) { in.Runs = in.Runs[:1] }, false,
			map[string][]string{"required workflows": {`no run of workflow "lint" at aaaaaaaaaaaa`}}},
		{"a run still going", func(in *Input) { in.Runs[1].Status, in.Runs[1].Conclusion = "IN_PROGRESS", "" }, false,
			map[string][]string{"required workflows": {`run 11 of workflow "lint" at aaaaaaaaaaaa is in_progress`}}},
		{"the newest run failed though an older one passed", func(in *Input) {
			in.Runs = append(in.Runs, Run{ID: 12, Workflow: "ci", Status: "completed", Conclusion: "failure"})
		}, false, map[string][]string{"required workflows": {`run 12 of workflow "ci" at aaaaaaaaaaaa concluded failure`}}},
		{"runs unreadable", func(in *Input) { in.RunsUnreadable = "Resource not accessible by integration" }, false,
			map[string][]string{"required workflows": {`the App cannot read workflow runs (Resource not accessible by integration); grant it "Actions: read"`}}},
		{"no workflow required", func(in *Input) { in.Required, in.Runs = nil, nil }, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := ready()
			tt.edit(&in)
			d := Decide(in)
			got := map[string][]string{}
			for _, c := range d.Conditions {
				if !c.OK {
					got[c.Name] = c.Missing
				}
			}
			if d.Ready != tt.wantReady {
				t.Errorf("Ready = %v, want %v", d.Ready, tt.wantReady)
			}
			if tt.wantMissing == nil {
				tt.wantMissing = map[string][]string{}
			}
			if diff := cmp.Diff(tt.wantMissing, got); diff != "" {
				t.Errorf("missing (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecideListsRunIDsNeverGreen(t *testing.T) {
	d := Decide(ready())
	if diff := cmp.Diff([]int64{10, 11}, d.RunIDs); diff != "" {
		t.Errorf("run IDs (-want +got):\n%s", diff)
	}
	for _, c := range d.Conditions {
		for _, e := range append(c.Evidence, c.Missing...) {
			if strings.Contains(strings.ToLower(e), "green") {
				t.Errorf("%s says %q: evidence is run IDs and SHAs, never green", c.Name, e)
			}
		}
	}
}
