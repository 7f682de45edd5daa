package gh_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// laneIndex is an attempt index with fixed contents that records whether
// it was told to forget.
type laneIndex struct {
	prs      []int
	complete bool
	forgot   bool
}

func (x *laneIndex) UnitAttempts(context.Context, int) ([]int, bool, error) {
	return x.prs, x.complete && !x.forgot, nil
}

func (x *laneIndex) ForgetAttempts(context.Context) error { x.forgot = true; return nil }

// TestSnapshotLanesBeyondTheWindow: a unit with 26 open attempts, more
// than the snapshot's window of 20 mentions a story; the 21st-oldest is
// judged against limits.attempts_per_unit 20 and must be refused. Its
// lanes are read whole: from the unit's attempts when the conversation
// was read, from a complete index, or by paging through the mentions; the
// count of reads shows which. The negative control trusts the window of
// the newest 20 mentions (the read before this fix): the 6 oldest attempts
// are not seen and the 21st-oldest passes.
func TestSnapshotLanesBeyondTheWindow(t *testing.T) {
	ghfake.RequireGraphQL(t)
	f, repo, in, _ := installation(t, ghfake.Permissions{"metadata": "read", "issues": "read", "pull_requests": "read", "contents": "read", "checks": "write"})
	m := repo.CreateMilestone("M1", "```yaml\ndemonstration: it works\n```")
	unit := repo.OpenIssue("olivia", "Unit", "```yaml\ngoal: a\n```", ghfake.InMilestone(m))
	var prs []int
	for i := range 26 {
		b := fmt.Sprintf("try-%d", i)
		repo.Branch(b, "main")
		repo.Commit(b, "c", map[string]string{b + ".go": "package x\n"})
		prs = append(prs, repo.OpenPR("bob", b, "main", b, fmt.Sprintf("Work-unit: #%d", unit.Number())).Number())
	}
	evaluated := prs[20]
	lanesOnly := snapshot.Needs{Lanes: true}
	tests := []struct {
		name   string
		needs  snapshot.Needs
		index  *laneIndex
		window bool
		reads  int
		lanes  int
		forgot bool
		ok     bool // the 21st-oldest passes the attempts limit
	}{
		{"no index: mentions paged", lanesOnly, nil, false, 2, 26, false, false},
		{"complete index", lanesOnly, &laneIndex{prs: prs, complete: true}, false, 1, 26, false, false},
		{"incomplete index: mentions paged", lanesOnly, &laneIndex{prs: prs}, false, 2, 26, false, false},
		{"index lacks an attempt in the window: forgets, paged", lanesOnly, &laneIndex{prs: slices.Delete(slices.Clone(prs), 25, 26), complete: true}, false, 2, 26, true, false},
		// The unit's attempts, read whole for the conversation, give its
		// lanes: no read more than those.
		{"from the unit's attempts", snapshot.Needs{Lanes: true, Conversation: true}, nil, false, 1, 26, false, false},
		{"negative control: the newest 20 mentions trusted", lanesOnly, nil, true, 1, 20, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.ResetLog()
			req := gh.SnapshotRequest{Owner: "acme", Repo: "widgets", PR: evaluated, Guesses: []int{unit.Number()}, Needs: tt.needs}
			if tt.index != nil {
				req.Attempts = tt.index
			}
			read := in.Snapshot
			if tt.window {
				read = in.SnapshotWindowLanes
			}
			snap, err := read(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if len(snap.Lanes) != tt.lanes || len(snap.LanesUnread) != 0 {
				t.Errorf("%d lanes, unread %v; want %d, none", len(snap.Lanes), snap.LanesUnread, tt.lanes)
			}
			if got := f.Calls("POST /graphql"); got != tt.reads {
				t.Errorf("%d reads, want %d", got, tt.reads)
			}
			if tt.index != nil && tt.index.forgot != tt.forgot {
				t.Errorf("index forgot %v, want %v", tt.index.forgot, tt.forgot)
			}
			v := workunit.Evaluate(workunit.Input{Refs: workunit.ParseRefs(snap.Pull.Body, snap.Repo), Unit: snap.Units[unit.Number()], PR: evaluated,
				Lanes: snap.Lanes, LanesUnread: snap.LanesUnread, Limits: workunit.Limits{AttemptsPerUnit: 20}})
			refused := slices.Contains(v.Reasons, over20(prs, unit.Number()))
			if refused == tt.ok {
				t.Errorf("#%d (the 21st-oldest attempt) refused by the attempts limit %v, want %v; reasons %q", evaluated, refused, !tt.ok, v.Reasons)
			}
		})
	}
}

// over20 is the refusal of an attempt over limits.attempts_per_unit 20
// among prs (the 20 oldest within it).
func over20(prs []int, unit int) string {
	lanes := make([]workunit.Lane, 0, 21)
	for _, n := range prs[:21] {
		lanes = append(lanes, workunit.Lane{PR: n, Unit: unit, URL: fmt.Sprintf("%s/pull/%d", "https://github.com/acme/widgets", n)})
	}
	return workunit.OverLimits(lanes, workunit.Limits{AttemptsPerUnit: 20})[prs[20]].Reason
}
