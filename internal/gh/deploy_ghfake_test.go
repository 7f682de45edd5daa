package gh_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestReviewDeployment: a run waiting on the App's rule is listed pending,
// answered once (a second answer is refused), and then waits for nothing;
// without deployments: write (the negative control) the answer is refused.
func TestReviewDeployment(t *testing.T) {
	for _, perm := range []string{"write", "read"} {
		t.Run("deployments "+perm, func(t *testing.T) {
			_, repo, in, _ := installation(t, ghfake.Permissions{"metadata": "read", "actions": "read", "deployments": perm})
			run := repo.StartWorkflowRun(ghfake.RunOptions{Name: "deploy"})
			run.RequestDeployment("production")
			ctx := context.Background()
			got, err := in.PendingDeployments(ctx, "acme", "widgets", run.ID())
			if err != nil || !cmp.Equal(got, []string{"production"}) {
				t.Fatalf("pending %v, %v", got, err)
			}
			err = in.ReviewDeployment(ctx, "acme", "widgets", run.ID(), "production", "approved", "certified")
			if perm == "read" {
				if err == nil {
					t.Fatal("answered without deployments: write")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := in.ReviewDeployment(ctx, "acme", "widgets", run.ID(), "production", "rejected", "again"); err == nil {
				t.Error("a second answer was taken")
			}
			want := []ghfake.DeploymentReview{{Environment: "production", State: "approved", Comment: "certified", AppID: run.DeploymentReviews()[0].AppID}}
			if diff := cmp.Diff(want, run.DeploymentReviews()); diff != "" {
				t.Errorf("reviews (-want +got):\n%s", diff)
			}
			if got, err := in.PendingDeployments(ctx, "acme", "widgets", run.ID()); err != nil || len(got) != 0 {
				t.Errorf("pending after the answer: %v, %v", got, err)
			}
		})
	}
}
