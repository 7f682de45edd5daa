package ghfake_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/fixtures"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-github/v62/github"
)

// assignEntry is what the assignment tests compare of a timeline event.
type assignEntry struct{ Event, Actor, Assignee string }

func assignments(t *testing.T, c *github.Client, n int) []assignEntry {
	t.Helper()
	events, _, err := c.Issues.ListIssueTimeline(ctx, "acme", "widgets", n, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []assignEntry
	for _, e := range events {
		if k := e.GetEvent(); k == "assigned" || k == "unassigned" {
			got = append(got, assignEntry{k, e.GetActor().GetLogin(), e.GetAssignee().GetLogin()})
		}
	}
	return got
}

// TestAssignmentsOnTheTimeline: assigning and unassigning, through the
// scenario, PATCH, POST and DELETE …/assignees, records assigned and
// unassigned timeline events (actor and assignee) in order, and sends
// issues.assigned/unassigned with the assignee and the sender.
func TestAssignmentsOnTheTimeline(t *testing.T) {
	f, repo, app, c := installed(t)
	is := repo.OpenIssue("olivia", "Story", "")
	f.CollectWebhooks(secret, app)
	is.Assign("olivia", "bob")
	is.Assign("alice", "copilot-swe-agent[bot]")
	is.Unassign("olivia", "bob")
	if _, _, err := c.Issues.Edit(ctx, "acme", "widgets", 1, &github.IssueRequest{Assignees: &[]string{"copilot-swe-agent[bot]", "dana"}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Issues.AddAssignees(ctx, "acme", "widgets", 1, []string{"erin"}); err != nil {
		t.Fatal(err)
	}
	got, _, err := c.Issues.RemoveAssignees(ctx, "acme", "widgets", 1, []string{"dana"})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(got.Assignees); n != 2 {
		t.Errorf("after removing dana the issue has %d assignees, want 2 (the agent, erin)", n)
	}
	bot := app.Slug + "[bot]"
	want := []assignEntry{{"assigned", "olivia", "bob"}, {"assigned", "alice", "copilot-swe-agent[bot]"}, {"unassigned", "olivia", "bob"},
		{"assigned", bot, "dana"}, {"assigned", bot, "erin"}, {"unassigned", bot, "dana"}}
	if diff := cmp.Diff(want, assignments(t, c, 1)); diff != "" {
		t.Errorf("timeline (-want +got):\n%s", diff)
	}
	var hooks []assignEntry
	for _, d := range f.Deliveries() {
		var p struct {
			Assignee, Sender struct{ Login string }
		}
		if d.Event == "issues" && json.Unmarshal(d.Payload, &p) == nil {
			hooks = append(hooks, assignEntry{d.Action, p.Sender.Login, p.Assignee.Login})
		}
	}
	if diff := cmp.Diff(want, hooks); diff != "" {
		t.Errorf("issues deliveries (-want +got):\n%s", diff)
	}
}

// TestAssignedShapes: the issues.assigned delivery carries every key of
// GitHub's recorded payloads, and the timeline's assigned event the keys
// of GitHub's timeline-assigned-issue-event.
func TestAssignedShapes(t *testing.T) {
	fixtures.Webhooks(t)
	f, repo, app, c := installed(t)
	is := repo.OpenIssue("olivia", "Story", "")
	f.CollectWebhooks(secret, app)
	is.Assign("alice", "Copilot")
	var sent map[string]any
	for _, d := range f.Deliveries() {
		if d.Event == "issues" && d.Action == "assigned" {
			if err := json.Unmarshal(d.Payload, &sent); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, w := range fixtures.WebhooksFor(t, "issues", "assigned") {
		var want map[string]any
		if err := json.Unmarshal(w.Body, &want); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"assignee", "sender"} {
			if missing := missingKeys(want[k].(map[string]any), sent[k].(map[string]any), k+".", 1); len(missing) > 0 {
				t.Errorf("issues.assigned lacks keys GitHub sends (%s): %s", w.Name, strings.Join(missing, ", "))
			}
		}
	}
	req, _ := c.NewRequest(http.MethodGet, "repos/acme/widgets/issues/1/timeline", nil)
	var events []map[string]any
	if _, err := c.Do(ctx, req, &events); err != nil {
		t.Fatal(err)
	}
	keys := []string{"id", "node_id", "url", "actor", "event", "commit_id", "commit_url", "created_at", "performed_via_github_app", "assignee"}
	for _, e := range events {
		if e["event"] != "assigned" {
			continue
		}
		for _, k := range keys {
			if _, ok := e[k]; !ok {
				t.Errorf("the assigned timeline event lacks %q", k)
			}
		}
		return
	}
	t.Error("the timeline has no assigned event")
}
