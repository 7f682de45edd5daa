package gatelog

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOverride: an owner's override binds to the pull request's head when
// first accepted; a new push ends it, a HOLD refuses or suspends it, an
// edit or deletion of its comment cancels it, and only an owner's counts.
func TestOverride(t *testing.T) {
	ov := comment(5, "alice", onPR, 5, "/aep override aepgate/audit production is down right now")
	keptAtA := with(ov, func(it *Item) { it.Head = headA })
	hold := comment(3, "alice", unitIssue, 3, "/aep hold waiting for legal")
	type got struct {
		Accepted bool
		InForce  []string
		Ended    bool
	}
	tests := []struct {
		name  string
		in    func(Input) Input
		rules []Rule
		want  got
	}{
		{"owner's override at the head", func(in Input) Input { in.Items = []Item{ov}; return in }, nil, got{true, []string{"aepgate/audit"}, false}},
		{"kept at headA, head now headB: a new push ended it", func(in Input) Input {
			in.Items, in.Kept = []Item{ov}, []Kept{kept(keptAtA)}
			in.PullRequests[0].Head = headB
			return in
		}, nil, got{true, nil, true}},
		{"non-owner refused", func(in Input) Input {
			in.Items = []Item{with(ov, func(it *Item) { it.Author = "mallory" })}
			return in
		}, nil, got{false, nil, false}},
		{"negative control: without owner-decides a writer overrides", func(in Input) Input {
			in.Items = []Item{with(ov, func(it *Item) { it.Author = "mallory" })}
			return in
		}, without("owner-decides"), got{true, []string{"aepgate/audit"}, false}},
		{"under a HOLD refused", func(in Input) Input { in.Items = []Item{hold, ov}; return in }, nil, got{false, nil, false}},
		{"a HOLD after it suspends it", func(in Input) Input {
			in.Items = []Item{ov, with(hold, func(it *Item) { it.Created, it.Updated = at(9), at(9) })}
			return in
		}, nil, got{true, nil, false}},
		{"edited to another check after it was kept: cancelled, not widened", func(in Input) Input {
			in.Items = []Item{edited(ov, "/aep override aepgate/merge production is down right now", 7)}
			in.Kept, in.Read = []Kept{kept(keptAtA)}, []Read{{Source: onPR}}
			return in
		}, nil, got{false, nil, false}},
		{"deleted after it was kept: cancelled", func(in Input) Input {
			in.Kept, in.Read = []Kept{kept(keptAtA)}, []Read{{Source: onPR}}
			return in
		}, nil, got{false, nil, false}},
		{"on the unit's issue refused", func(in Input) Input {
			in.Items = []Item{with(ov, func(it *Item) { it.Source = unitIssue })}
			return in
		}, nil, got{false, nil, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules := tt.rules
			if rules == nil {
				rules = DefaultRules()
			}
			r := BuildWith(tt.in(input()), rules)
			var g got
			for _, o := range r.Outcomes {
				if o.ItemID == 5 {
					g.Accepted = o.Accepted
				}
			}
			for _, o := range r.Overrides {
				g.Ended = g.Ended || o.Ended != ""
			}
			for c := range r.InForce(21, currentHead(tt.in(input()))) {
				g.InForce = append(g.InForce, c)
			}
			if diff := cmp.Diff(tt.want, g); diff != "" {
				t.Errorf("override (-want +got):\n%s\noutcomes: %+v", diff, r.Outcomes)
			}
		})
	}
}

func currentHead(in Input) string { return in.PullRequests[0].Head }
