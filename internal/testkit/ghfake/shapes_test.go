package ghfake_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/fixtures"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-github/v62/github"
)

// TestRESTShapesMatchFixtures compares REST answers with the same objects
// in GitHub's recorded webhook payloads: every key GitHub sends must be there.
func TestRESTShapesMatchFixtures(t *testing.T) {
	fixtures.Webhooks(t)
	f, repo, _, c := installed(t)
	ms := repo.CreateMilestone("m", "")
	is := repo.OpenIssue("alice", "Story", "b", ghfake.InMilestone(ms), ghfake.WithLabels("product"))
	cm := is.Comment("alice", "hi")
	repo.Branch("feature", "main")
	repo.Commit("feature", "w", map[string]string{"a": "a\n"})
	pr := repo.OpenPR("alice", "feature", "main", "PR", "")
	repo.Grant("auditor", "write")
	rv := pr.SubmitReview("auditor", "APPROVED", "ok")
	run, _, err := c.Checks.CreateCheckRun(ctx, "acme", "widgets", github.CreateCheckRunOptions{Name: "x", HeadSHA: pr.Head()})
	if err != nil {
		t.Fatal(err)
	}
	wr := repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci"})
	rel := repo.PublishRelease("v1", ghfake.ReleaseOptions{Assets: map[string][]byte{"a": []byte("a")}})
	_ = f
	tests := []struct {
		path   string // REST path
		event  string // the recorded webhook payloads to compare with:
		action string // every one of this event and action
		object string // the object in the payload
		depth  int    // how deep to compare (REST check runs carry only check_suite.id)
	}{
		{"repos/acme/widgets", "issues", "opened", "repository", 2},
		{"repos/acme/widgets/issues/1", "issues", "opened", "issue", 2},
		{"repos/acme/widgets/issues/comments/" + itoa(cm.ID()), "issue_comment", "created", "comment", 2},
		{"repos/acme/widgets/milestones/1", "milestone", "created", "milestone", 2},
		{"repos/acme/widgets/pulls/2", "pull_request", "opened", "pull_request", 2},
		{"repos/acme/widgets/pulls/2/reviews/" + itoa(rv), "pull_request_review", "submitted", "review", 2},
		{"repos/acme/widgets/check-runs/" + itoa(run.GetID()), "check_run", "created", "check_run", 1},
		{"repos/acme/widgets/check-suites/" + itoa(run.GetCheckSuite().GetID()), "check_suite", "completed", "check_suite", 2},
		{"repos/acme/widgets/actions/runs/" + itoa(wr.ID()), "workflow_run", "completed", "workflow_run", 2},
		{"repos/acme/widgets/releases/" + itoa(rel.ID()), "release", "published", "release", 2},
	}
	for _, tt := range tests {
		t.Run(tt.object, func(t *testing.T) {
			req, _ := c.NewRequest("GET", tt.path, nil)
			var got map[string]any
			if _, err := c.Do(ctx, req, &got); err != nil {
				t.Fatalf("GET %s: %v", tt.path, err)
			}
			recorded := fixtures.WebhooksFor(t, tt.event, tt.action)
			if len(recorded) == 0 {
				t.Fatalf("no recorded %s.%s payload", tt.event, tt.action)
			}
			for _, w := range recorded {
				var fix map[string]json.RawMessage
				if err := json.Unmarshal(w.Body, &fix); err != nil {
					t.Fatal(err)
				}
				var want map[string]any
				if err := json.Unmarshal(fix[tt.object], &want); err != nil {
					t.Fatalf("%s: %v", w.Name, err)
				}
				if missing := missingKeys(want, got, tt.object+".", tt.depth); len(missing) > 0 {
					t.Errorf("GET %s lacks keys GitHub sends in %s (%s): %s", tt.path, tt.object, w.Name, strings.Join(missing, ", "))
				}
			}
		})
	}
}
