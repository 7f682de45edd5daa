package verdict

import (
	"slices"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// TestUnitVerdictLanesUnread: a story of the increment whose open attempts
// could not all be read (snapshot.PR.LanesUnread) refuses the first
// attempt read, which may not be the first there is; the negative control
// drops the unread stories and the attempt is judged within the limit.
func TestUnitVerdictLanesUnread(t *testing.T) {
	tests := []struct {
		name   string
		unread []int
		want   bool
	}{
		{"unread story: refused", []int{1}, true},
		{"negative control: unread dropped", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap := &snapshot.PR{Repo: "acme/app",
				Pull:        &snapshot.Pull{Number: 10, Body: "Work-unit: #1", State: "OPEN"},
				Units:       map[int]*workunit.Issue{1: {Number: 1, Open: true, Milestone: &workunit.Milestone{Number: 1, Title: "M1", Open: true}}},
				Lanes:       []workunit.Lane{{PR: 10, Unit: 1}, {PR: 11, Unit: 1}},
				LanesUnread: tt.unread,
			}
			v := NewWith(snap, nil).UnitVerdict()
			got := slices.ContainsFunc(v.Reasons, func(r string) bool { return strings.HasPrefix(r, "the WIP limits (") })
			if got != tt.want {
				t.Errorf("refused as unknown %v, want %v; reasons %q", got, tt.want, v.Reasons)
			}
		})
	}
}
