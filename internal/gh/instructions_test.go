package gh

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/instructor"
	"github.com/google/go-cmp/cmp"
)

// TestInstructionsQueryValid: the query is valid against GitHub's schema
// as the fake vendors it.
func TestInstructionsQueryValid(t *testing.T) {
	if err := ghfake.ValidateQuery(instructionsQuery); err != nil {
		t.Fatal(err)
	}
}

// instructionsFrom is one page's data read as Instructions.
func instructionsFrom(data instructionsData, owner, repo string, number int) (*Instructions, error) {
	pull, issue, err := timelinesIn(data, true, owner, repo, number)
	if err != nil {
		return nil, err
	}
	out := &Instructions{}
	if issue != nil {
		out.add(*issue, instructor.ChannelIssueAssignment)
	}
	out.add(*pull, instructor.ChannelPullAssignment)
	return out, nil
}

func TestInstructionsFrom(t *testing.T) {
	const raw = `{"repository": {
 "issue": {"timelineItems": {"pageInfo": {"hasNextPage": false}, "nodes": [
  {"__typename": "AssignedEvent", "createdAt": "2026-12-01T10:00:00Z", "actor": {"login": "alice"}, "assignee": {"login": "claude[bot]"}}]}},
 "pullRequest": {"timelineItems": {"pageInfo": {"hasNextPage": false}, "nodes": [
  {"__typename": "PullRequestCommit", "commit": {"oid": "c1", "committedDate": "2026-12-01T10:05:00Z", "author": {"user": {"login": "claude[bot]"}}, "committer": {"user": null}, "authors": {"nodes": [{"user": {"login": "claude[bot]"}}, {"user": {"login": "bob"}}]}}},
  {"__typename": "IssueComment", "createdAt": "2026-12-01T10:06:00Z", "url": "u1", "body": "@claude again", "author": null},
  {"__typename": "PullRequestReview", "createdAt": "2026-12-01T10:07:00Z", "url": "u2", "body": "", "author": {"login": "carol"},
   "comments": {"pageInfo": {"hasNextPage": true}, "nodes": [{"createdAt": "2026-12-01T10:07:00Z", "url": "u3", "body": "/codex fix", "author": {"login": "carol"}}]}},
  {"__typename": "LabeledEvent", "createdAt": "2026-12-01T10:08:00Z", "actor": {"login": "dana"}, "label": {"name": "jules"}},
  {"__typename": "AssignedEvent", "createdAt": "2026-12-01T10:09:00Z", "actor": {"login": "erin"}, "assignee": {"login": "Copilot"}},
  {"__typename": "HeadRefForcePushedEvent", "createdAt": "2026-12-01T10:10:00Z", "actor": {"__typename": "Bot", "login": "claude"}, "afterCommit": {"oid": "c2"}}]}}}}`
	var data instructionsData
	if err := json.Unmarshal([]byte(raw), &data); err != nil {
		t.Fatal(err)
	}
	got, err := instructionsFrom(data, "acme", "widgets", 8)
	if err != nil {
		t.Fatal(err)
	}
	at := func(m int) time.Time { return time.Date(2026, 12, 1, 10, m, 0, 0, time.UTC) }
	want := &Instructions{
		Items: []instructor.Item{
			{Channel: instructor.ChannelIssueAssignment, Author: "alice", At: at(0), Assignee: "claude[bot]"},
			{Channel: instructor.ChannelComment, At: at(6), Body: "@claude again", Ref: "u1"},
			{Channel: instructor.ChannelReview, Author: "carol", At: at(7), Ref: "u2"},
			{Channel: instructor.ChannelReviewComment, Author: "carol", At: at(7), Body: "/codex fix", Ref: "u3"},
			{Channel: instructor.ChannelLabel, Author: "dana", At: at(8), Label: "jules", Ref: "label jules"},
			{Channel: instructor.ChannelPullAssignment, Author: "erin", At: at(9), Assignee: "Copilot"},
		},
		Heads: []Head{
			{SHA: "c1", At: at(5), Logins: []string{"claude[bot]", "claude[bot]", "bob"}},
			{SHA: "c2", At: at(10), Server: true, Pusher: "claude[bot]"},
		},
		Truncated: true, // the review's comments have another page
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("instructionsFrom (-want +got):\n%s", diff)
	}
	if _, err := instructionsFrom(instructionsData{}, "acme", "widgets", 8); err == nil {
		t.Error("an invisible pull request read as no instructions")
	}
}
