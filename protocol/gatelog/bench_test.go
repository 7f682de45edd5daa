package gatelog

import (
	"fmt"
	"strings"
	"testing"
)

// unitWith2000Comments is a busy work unit: 2,000 comments on its issue and
// pull request, of which every 10th is a command: in turn a coordinator's
// gate, the owner's answer, the owner's HOLD and RESUME (50 of each).
func unitWith2000Comments() Input {
	prose := strings.Repeat("The tests pass locally; CI is queued and the /aep docs were read. ", 3)
	items := make([]Item, 0, 2000)
	for i := range 2000 {
		src, who, body := onPR, "mallory", prose
		if i%2 == 0 {
			src = unitIssue
		}
		if i%10 == 0 {
			switch k := i / 10; k % 4 {
			case 0:
				who, body = "carol", gateBlock(fmt.Sprintf("g%d", k), "merge", fmt.Sprintf("Decision %d?", k))
			case 1:
				who, body = "alice", fmt.Sprintf("/aep resolve g%d approve", k-1)
			case 2:
				who, body = "alice", "/aep hold waiting for legal"
			case 3:
				who, body = "alice", "/aep resume"
			}
		}
		items = append(items, comment(int64(i+1), who, src, i, body))
	}
	return input(items...)
}

func TestUnitWith2000Comments(t *testing.T) {
	r := Build(unitWith2000Comments())
	if len(r.State.Gates) != 50+50 || len(r.Blockers) != 0 {
		t.Errorf("gates %d, blockers %v; want 100 gates (50 asked, 50 HOLDs) and none blocking", len(r.State.Gates), tokens(r))
	}
	for _, o := range r.Outcomes {
		if !o.Accepted {
			t.Errorf("refused: %+v", o)
		}
	}
}

func BenchmarkReplay2000(b *testing.B) {
	in := unitWith2000Comments()
	b.ReportAllocs()
	for b.Loop() {
		Build(in)
	}
}
