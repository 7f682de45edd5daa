package ghfake_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// attemptsQuery is the App's query for the pull requests that reference a
// work-unit issue. The Issue source's state needs an alias: PullRequestState
// and IssueState under one response key fail validation (GitHub's too).
const attemptsQuery = `query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) {
  u1: issueOrPullRequest(number: 1) { __typename ... on Issue { number
    timelineItems(itemTypes: [CROSS_REFERENCED_EVENT], last: 50) { totalCount nodes { __typename ... on CrossReferencedEvent { isCrossRepository willCloseTarget referencedAt actor { __typename login }
      source { __typename ... on PullRequest { number state body headRefOid
        comments(last: 50) { totalCount nodes { databaseId url body createdAt updatedAt lastEditedAt author { __typename login } } }
        reviews(last: 50) { totalCount nodes { databaseId url body state submittedAt lastEditedAt author { __typename login } commit { oid } } } }
        ... on Issue { number issueState: state } } } } } } }
} }`

// TestCrossReferenceAttemptsQuery resolves the App's query and compares
// every value with the REST-side state that made it.
func TestCrossReferenceAttemptsQuery(t *testing.T) {
	f, repo, tok := xrefRepo(t)
	pr := openPR(repo, "alice", "b1", "main", "Work-unit: #1")
	f.Advance(time.Minute)
	cm := pr.Comment("bob", "looks fine")
	f.Advance(time.Minute)
	cm.Edit("bob", "looks fine to me")
	repo.Grant("auditor", "write")
	rv := pr.SubmitReview("auditor", "COMMENTED", "audit pending")
	f.Advance(time.Minute)
	repo.OpenIssue("carol", "Note", "see #1").Close("carol")

	got := post(t, f, tok, attemptsQuery, map[string]any{"owner": "acme", "name": "widgets"})
	if errs := got["errors"]; errs != nil {
		t.Fatalf("errors: %v", errs)
	}
	id := func(n int64) float64 { return float64(n) }
	prURL := "https://github.com/acme/widgets/pull/2"
	want := map[string]any{"__typename": "Issue", "number": float64(1), "timelineItems": map[string]any{
		"totalCount": float64(2),
		"nodes": []any{
			map[string]any{"__typename": "CrossReferencedEvent", "isCrossRepository": false, "willCloseTarget": false,
				"referencedAt": xrefAt(0), "actor": map[string]any{"__typename": "User", "login": "alice"},
				"source": map[string]any{"__typename": "PullRequest", "number": float64(2), "state": "OPEN",
					"body": "Work-unit: #1", "headRefOid": pr.Head(),
					"comments": map[string]any{"totalCount": float64(1), "nodes": []any{map[string]any{
						"databaseId": id(cm.ID()), "url": prURL + "#issuecomment-" + strconv.FormatInt(cm.ID(), 10),
						"body": "looks fine to me", "createdAt": xrefAt(time.Minute), "updatedAt": xrefAt(2 * time.Minute),
						"lastEditedAt": xrefAt(2 * time.Minute), "author": map[string]any{"__typename": "User", "login": "bob"}}}},
					"reviews": map[string]any{"totalCount": float64(1), "nodes": []any{map[string]any{
						"databaseId": id(rv), "url": prURL + "#pullrequestreview-" + strconv.FormatInt(rv, 10),
						"body": "audit pending", "state": "COMMENTED", "submittedAt": xrefAt(2 * time.Minute), "lastEditedAt": nil,
						"author": map[string]any{"__typename": "User", "login": "auditor"}, "commit": map[string]any{"oid": pr.Head()}}}}}},
			map[string]any{"__typename": "CrossReferencedEvent", "isCrossRepository": false, "willCloseTarget": false,
				"referencedAt": xrefAt(3 * time.Minute), "actor": map[string]any{"__typename": "User", "login": "carol"},
				"source": map[string]any{"__typename": "Issue", "number": float64(3), "issueState": "CLOSED"}},
		}}}
	if diff := cmp.Diff(want, dig(got, "data", "repository", "u1")); diff != "" {
		t.Errorf("u1 (-want +got):\n%s", diff)
	}
}

// TestCrossReferenceStateConflict: without the alias the query is refused
// before it runs, as GitHub refuses it.
func TestCrossReferenceStateConflict(t *testing.T) {
	f, _, tok := xrefRepo(t)
	q := strings.Replace(attemptsQuery, "issueState: state", "state", 1)
	got := post(t, f, tok, q, map[string]any{"owner": "acme", "name": "widgets"})
	if msg, _ := dig(got, "errors", 0, "message").(string); !strings.Contains(msg, `Fields "state" conflict`) {
		t.Errorf("unaliased state: error = %q", msg)
	}
}

// TestCrossReferenceUnimplementedItems: timeline items the fake does not
// record fail as any unimplemented field does, never as an empty list.
func TestCrossReferenceUnimplementedItems(t *testing.T) {
	f, _, tok := xrefRepo(t)
	for _, args := range []string{
		"first: 10",
		"itemTypes: [RENAMED_TITLE_EVENT], first: 10",
		"itemTypes: [CROSS_REFERENCED_EVENT, UNLABELED_EVENT], first: 10",
		`itemTypes: [CROSS_REFERENCED_EVENT], since: "2026-01-01T00:00:00Z", first: 10`,
	} {
		got := post(t, f, tok, `{ repository(owner: "acme", name: "widgets") { issue(number: 1) { timelineItems(`+args+`) { totalCount } } } }`, nil)
		msg, _ := dig(got, "errors", 0, "message").(string)
		if !strings.Contains(msg, "Issue.timelineItems") || !strings.Contains(msg, "not implemented by the fake") {
			t.Errorf("timelineItems(%s): error = %q, data %v", args, msg, got["data"])
		}
	}
}
