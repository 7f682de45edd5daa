package ghfake_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// fakeIndex is an attempt index with fixed contents that records whether
// it was told to forget.
type fakeIndex struct {
	prs      []int
	complete bool
	forgot   bool
}

func (x *fakeIndex) UnitAttempts(context.Context, int) ([]int, bool, error) {
	return x.prs, x.complete && !x.forgot, nil
}

func (x *fakeIndex) ForgetAttempts(context.Context) error { x.forgot = true; return nil }

// TestSnapshotReadsAttemptsFromTheIndex: a unit with 200 open attempts
// (four times the snapshot's window of 50 mentions) is read in two queries
// when the attempt index is complete: the snapshot and one bulk read of
// the indexed attempts the window lacks. An incomplete index, or one that
// lacks an attempt the window shows (which makes it forget), is not used:
// the mentions are paged through as before, and no attempt is hidden. The
// negative control shows what the index is trusted with: an attempt
// missing from a complete index and older than the window is not seen.
func TestSnapshotReadsAttemptsFromTheIndex(t *testing.T) {
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	unit := repo.OpenIssue("olivia", "Unit", "```yaml\ngoal: a\n```")
	var prs []int
	for i := range 200 {
		b := fmt.Sprintf("try-%d", i)
		repo.Branch(b, "main")
		repo.Commit(b, "c", map[string]string{b + ".go": "package x\n"})
		pr := repo.OpenPR("bob", b, "main", b, "Work-unit: #"+strconv.Itoa(unit.Number()))
		if i == 0 {
			pr.Comment("olivia", "/aep hold on the first try")
		}
		prs = append(prs, pr.Number())
	}
	evaluated, oldest, newest := prs[199], prs[0], prs[198]
	without := func(n int) []int { return slices.DeleteFunc(slices.Clone(prs), func(p int) bool { return p == n }) }
	in := projectInstallation(t, f, repo)
	tests := []struct {
		name       string
		index      *fakeIndex
		reads      int
		forgot     bool
		attempts   int
		seesOldest bool
	}{
		{"complete index", &fakeIndex{prs: prs, complete: true}, 2, false, 200, true},
		{"incomplete index: paged", &fakeIndex{prs: prs}, 5, false, 200, true},
		{"no index: paged", nil, 5, false, 200, true},
		{"index lacks an attempt in the window: forgets, paged", &fakeIndex{prs: without(newest), complete: true}, 5, true, 200, true},
		{"index lacks the evaluated pull request: forgets, paged", &fakeIndex{prs: without(evaluated), complete: true}, 5, true, 200, true},
		// Negative control: the index is trusted for what lies beyond the
		// window; one that lost the oldest attempt hides it.
		{"negative control: complete index lacking an old attempt", &fakeIndex{prs: without(oldest), complete: true}, 2, false, 199, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.ResetLog()
			req := gh.SnapshotRequest{Owner: "acme", Repo: "widgets", PR: evaluated, Guesses: []int{unit.Number()}, Needs: snapshot.Needs{Conversation: true}}
			if tt.index != nil {
				req.Attempts = tt.index
			}
			snap, err := in.Snapshot(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			a := snap.UnitAttempts[unit.Number()]
			i := slices.IndexFunc(a.Pulls, func(p snapshot.Attempt) bool { return p.Number == oldest })
			sees := i >= 0 && len(a.Pulls[i].Conversation.Comments) == 1
			if a.Truncated || len(a.Pulls) != tt.attempts || sees != tt.seesOldest {
				t.Errorf("%d attempts (truncated %v), sees the oldest's HOLD %v; want %d, %v", len(a.Pulls), a.Truncated, sees, tt.attempts, tt.seesOldest)
			}
			if got := f.Calls("POST /graphql"); got != tt.reads {
				t.Errorf("%d reads, want %d", got, tt.reads)
			}
			if tt.index != nil && tt.index.forgot != tt.forgot {
				t.Errorf("index forgot %v, want %v", tt.index.forgot, tt.forgot)
			}
		})
	}
}
