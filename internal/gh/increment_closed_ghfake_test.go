package gh_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestClosedMilestones: one read lists the closed milestones, each with
// its closed_at; open ones are left out.
func TestClosedMilestones(t *testing.T) {
	f, repo, in, _ := installation(t, ghfake.Permissions{"metadata": "read", "issues": "read"})
	repo.CreateMilestone("open", "")
	closed := repo.CreateMilestone("closed", "")
	closed.CloseBy("carl")
	f.ResetLog()
	got, err := in.ClosedMilestones(context.Background(), "acme", "widgets")
	if err != nil {
		t.Fatal(err)
	}
	if n := f.Calls("GET /repos/{owner}/{repo}/milestones"); n != 1 {
		t.Errorf("%d reads, want 1", n)
	}
	if len(got) == 1 {
		if _, err := time.Parse(time.RFC3339, got[0].ClosedAt); err != nil {
			t.Errorf("closed_at %q: %v", got[0].ClosedAt, err)
		}
		got[0].ClosedAt = "" // the fake's clock
	}
	want := []gh.ClosedMilestone{{Number: closed.Number()}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ClosedMilestones (-want +got):\n%s", diff)
	}
}
