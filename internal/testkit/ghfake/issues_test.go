package ghfake_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-github/v62/github"
)

func TestIssuesMilestonesAndComments(t *testing.T) {
	f, repo, _, c := installed(t)
	ms := repo.CreateMilestone("Increment 1", "```yaml\nrisk: medium\n```\n")
	story := repo.OpenIssue("alice", "Story A", "```yaml\ngoal: g\n```\n", ghfake.InMilestone(ms), ghfake.WithLabels("product"))
	other := repo.OpenIssue("alice", "Story B", "", ghfake.InMilestone(ms))
	repo.OpenIssue("bob", "Unrelated", "")
	t0 := f.Now()
	cm := story.Comment("alice", "/aep hold waiting for data")
	f.Advance(time.Minute)
	cm.Edit("alice", "/aep hold edited")

	got, _, err := c.Issues.ListByRepo(ctx, "acme", "widgets", &github.IssueListByRepoOptions{Milestone: "1"})
	if err != nil {
		t.Fatalf("ListByRepo: %v", err)
	}
	var nums []int
	for _, is := range got {
		nums = append(nums, is.GetNumber())
	}
	if diff := cmp.Diff([]int{other.Number(), story.Number()}, nums); diff != "" {
		t.Errorf("milestone issues (-want +got):\n%s", diff)
	}
	comments, _, err := c.Issues.ListComments(ctx, "acme", "widgets", story.Number(), nil)
	if err != nil || len(comments) != 1 {
		t.Fatalf("ListComments = %d, %v", len(comments), err)
	}
	if !comments[0].GetCreatedAt().Time.Equal(t0) || !comments[0].GetUpdatedAt().Time.After(t0) || comments[0].GetBody() != "/aep hold edited" {
		t.Errorf("edited comment: created %v updated %v body %q", comments[0].GetCreatedAt(), comments[0].GetUpdatedAt(), comments[0].GetBody())
	}
	m, _, err := c.Issues.GetMilestone(ctx, "acme", "widgets", ms.Number())
	if err != nil || m.GetOpenIssues() != 2 {
		t.Errorf("milestone open issues = %d, %v; want 2", m.GetOpenIssues(), err)
	}
	is, _, err := c.Issues.Get(ctx, "acme", "widgets", story.Number())
	if err != nil || len(is.Labels) != 1 || is.GetMilestone().GetNumber() != ms.Number() {
		t.Errorf("issue = labels %v milestone %v, %v", is.Labels, is.GetMilestone().GetNumber(), err)
	}
	newComment, _, err := c.Issues.CreateComment(ctx, "acme", "widgets", story.Number(), &github.IssueComment{Body: github.String("Refused: not an owner")})
	if err != nil || newComment.GetUser().GetLogin() != "app-42[bot]" {
		t.Errorf("App comment author = %q, %v; want app-42[bot]", newComment.GetUser().GetLogin(), err)
	}
	r, resp, err := c.Reactions.CreateIssueCommentReaction(ctx, "acme", "widgets", cm.ID(), "eyes")
	if err != nil || resp.StatusCode != http.StatusCreated || r.GetContent() != "eyes" {
		t.Errorf("reaction = %v %v", r, err)
	}
	if _, resp, _ = c.Reactions.CreateIssueCommentReaction(ctx, "acme", "widgets", cm.ID(), "eyes"); resp.StatusCode != http.StatusOK {
		t.Errorf("repeated reaction status = %d, want 200", resp.StatusCode)
	}
}

func TestDependenciesAndSubIssues(t *testing.T) {
	_, repo, _, c := installed(t)
	a := repo.OpenIssue("alice", "A", "")
	b := repo.OpenIssue("alice", "B", "")
	parent := repo.OpenIssue("alice", "Epic", "")
	b.BlockedBy(a)
	parent.AddSubIssue(a)

	var blockers []struct {
		Number int `json:"number"`
	}
	req, _ := c.NewRequest("GET", "repos/acme/widgets/issues/2/dependencies/blocked_by", nil)
	if _, err := c.Do(ctx, req, &blockers); err != nil || len(blockers) != 1 || blockers[0].Number != a.Number() {
		t.Fatalf("blocked_by = %+v, %v", blockers, err)
	}
	req, _ = c.NewRequest("POST", "repos/acme/widgets/issues/2/dependencies/blocked_by", map[string]any{"issue_id": parent.ID()})
	if _, err := c.Do(ctx, req, nil); err != nil {
		t.Fatalf("add blocker: %v", err)
	}
	var summary struct {
		Deps struct {
			BlockedBy      int `json:"blocked_by"`
			TotalBlockedBy int `json:"total_blocked_by"`
		} `json:"issue_dependencies_summary"`
		Subs struct {
			Total int `json:"total"`
		} `json:"sub_issues_summary"`
	}
	a.Close("alice")
	req, _ = c.NewRequest("GET", "repos/acme/widgets/issues/2", nil)
	if _, err := c.Do(ctx, req, &summary); err != nil {
		t.Fatal(err)
	}
	if summary.Deps.BlockedBy != 1 || summary.Deps.TotalBlockedBy != 2 {
		t.Errorf("dependency summary = %+v, want 1 open of 2", summary.Deps)
	}
	req, _ = c.NewRequest("POST", "repos/acme/widgets/issues/3/sub_issues", map[string]any{"sub_issue_id": b.ID()})
	if _, err := c.Do(ctx, req, &summary); err != nil || summary.Subs.Total != 2 {
		t.Errorf("add sub-issue: total %d, %v; want 2", summary.Subs.Total, err)
	}
	req, _ = c.NewRequest("POST", "repos/acme/widgets/issues/1/sub_issues", map[string]any{"sub_issue_id": parent.ID()})
	if _, err := c.Do(ctx, req, nil); status(err) != 422 {
		t.Errorf("cycle: err = %v, want 422", err)
	}
}

func TestCollaboratorPermission(t *testing.T) {
	f, repo, _, c := installed(t)
	for login, role := range map[string]string{"alice": "admin", "bob": "maintain", "carol": "write", "dan": "triage", "erin": "read"} {
		repo.Grant(login, role)
	}
	f.UserID("mallory")
	tests := []struct{ login, want, role string }{
		{"acme", "admin", "admin"},
		{"alice", "admin", "admin"},
		{"bob", "write", "maintain"},
		{"carol", "write", "write"},
		{"dan", "read", "triage"},
		{"erin", "read", "read"},
		{"mallory", "none", "none"},
	}
	for _, tt := range tests {
		t.Run(tt.login, func(t *testing.T) {
			got, _, err := c.Repositories.GetPermissionLevel(ctx, "acme", "widgets", tt.login)
			if err != nil {
				t.Fatal(err)
			}
			if got.GetPermission() != tt.want || got.GetUser().GetRoleName() != tt.role {
				t.Errorf("permission = %q role %q, want %q %q", got.GetPermission(), got.GetUser().GetRoleName(), tt.want, tt.role)
			}
		})
	}
	if _, _, err := c.Repositories.GetPermissionLevel(ctx, "acme", "widgets", "nobody-at-all"); status(err) != 404 {
		t.Errorf("unknown user: err = %v, want 404", err)
	}
}
