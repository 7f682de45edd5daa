package ghfake_test

import (
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

func TestGraphQLTour(t *testing.T) {
	f, repo, tok := gqlStory(t)
	repo.Grant("auditor", "write")
	pr := repo.PR(3)
	pr.RequestReviewers("alice", "auditor")
	rv := pr.SubmitReview("auditor", "CHANGES_REQUESTED", "fix it")
	pr.DismissReview("acme", rv, "outdated")
	pr.SubmitReview("auditor", "APPROVED", "")
	repo.Issue(2).Edit("alice", "edited body")
	repo.Issue(2).Close("alice")
	repo.Issue(2).Reopen("alice")
	repo.Issue(2).SetMilestone("alice", nil)
	q := `fragment who on Actor { login }
query { repository(owner: "acme", name: "widgets") {
  id databaseId name url isPrivate owner { __typename ...who }
  ref(qualifiedName: "feature") { name prefix target { ... on Commit { oid messageHeadline parents(first: 1) { totalCount } } } }
  readme: object(expression: "main:README.md") { ... on Blob { text byteSize isBinary } }
  docs: object(expression: "main:.github") { __typename }
  open: issues(first: 1, states: [OPEN]) { totalCount pageInfo { hasNextPage endCursor } nodes { number } }
  product: issues(first: 10, labels: ["product"]) { nodes { number } }
  pullRequests(first: 5, states: [OPEN], headRefName: "feature") { nodes { number isDraft merged mergeable baseRefName
    commits(first: 5) { totalCount nodes { commit { oid author { name user { login } } } } }
    reviews(first: 10, states: [APPROVED, DISMISSED]) { nodes { state author { ...who } commit { oid } } }
    reviewRequests(first: 5) { totalCount }
    closingIssuesReferences(first: 5) { totalCount } } }
  milestones(first: 5, states: [OPEN]) { nodes { number title progressPercentage pullRequests(first: 5) { totalCount } } }
  labels(first: 10) { nodes { name color } }
  issue(number: 1) { subIssuesSummary { total } parent { number subIssues(first: 5) { nodes { number } } }
    blockedBy(first: 5) { nodes { number blocking(first: 5) { totalCount } } } stateReason }
  b: issue(number: 2) { state stateReason body milestone { number } }
} }`
	got := post(t, f, tok, q, nil)
	if errs := got["errors"]; errs != nil {
		t.Fatalf("errors: %v", errs)
	}
	r := dig(got, "data", "repository")
	checks := []struct {
		path []any
		want any
	}{
		{[]any{"owner", "__typename"}, "Organization"},
		{[]any{"owner", "login"}, "acme"},
		{[]any{"ref", "name"}, "feature"},
		{[]any{"ref", "prefix"}, "refs/heads/"},
		{[]any{"ref", "target", "messageHeadline"}, "work"},
		{[]any{"readme", "text"}, "# widgets\n"},
		{[]any{"docs", "__typename"}, "Tree"},
		{[]any{"open", "pageInfo", "hasNextPage"}, true},
		{[]any{"product", "nodes", 0, "number"}, float64(1)},
		{[]any{"pullRequests", "nodes", 0, "mergeable"}, "MERGEABLE"},
		{[]any{"pullRequests", "nodes", 0, "commits", "nodes", 0, "commit", "author", "user", "login"}, "alice"},
		{[]any{"pullRequests", "nodes", 0, "reviews", "nodes", 0, "state"}, "DISMISSED"},
		{[]any{"pullRequests", "nodes", 0, "reviews", "nodes", 1, "author", "login"}, "auditor"},
		{[]any{"pullRequests", "nodes", 0, "reviewRequests", "totalCount"}, float64(0)},
		{[]any{"pullRequests", "nodes", 0, "closingIssuesReferences", "totalCount"}, float64(0)},
		{[]any{"milestones", "nodes", 0, "progressPercentage"}, float64(0)},
		{[]any{"issue", "subIssuesSummary", "total"}, float64(0)},
		{[]any{"issue", "parent", "number"}, float64(4)},
		{[]any{"issue", "parent", "subIssues", "nodes", 0, "number"}, float64(1)},
		{[]any{"issue", "blockedBy", "nodes", 0, "blocking", "totalCount"}, float64(1)},
		{[]any{"b", "stateReason"}, "REOPENED"},
		{[]any{"b", "body"}, "edited body"},
		{[]any{"b", "milestone"}, nil},
	}
	for _, c := range checks {
		if v := dig(r, c.path...); v != c.want {
			t.Errorf("%v = %v, want %v", c.path, v, c.want)
		}
	}
	after := dig(r, "open", "pageInfo", "endCursor").(string)
	next := post(t, f, tok, `query($a: String) { repository(owner: "acme", name: "widgets") { issues(first: 1, after: $a, states: [OPEN]) { nodes { number } } } }`, map[string]any{"a": after})
	if n := dig(next, "data", "repository", "issues", "nodes", 0, "number"); n != float64(2) {
		t.Errorf("second page = %v", n)
	}
	id := dig(post(t, f, tok, `{ repository(owner: "acme", name: "widgets") { issue(number: 2) { id } } }`, nil), "data", "repository", "issue", "id")
	node := post(t, f, tok, `query($id: ID!) { node(id: $id) { __typename ... on Issue { number } } }`, map[string]any{"id": id})
	if dig(node, "data", "node", "number") != float64(2) {
		t.Errorf("node = %v", node)
	}
	xrefs := post(t, f, tok, `{ repository(owner: "acme", name: "widgets") { issue(number: 1) { timelineItems(itemTypes: [CROSS_REFERENCED_EVENT], first: 1) { totalCount } } } }`, nil)
	if n := dig(xrefs, "data", "repository", "issue", "timelineItems", "totalCount"); n != float64(1) {
		t.Errorf("cross-references of #1 = %v (errors %v)", n, xrefs["errors"])
	}
	notImpl := post(t, f, tok, `{ repository(owner: "acme", name: "widgets") { issue(number: 1) { timelineItems(itemTypes: [RENAMED_TITLE_EVENT], first: 1) { totalCount } } } }`, nil)
	if msg := dig(notImpl, "errors", 0, "message"); msg == nil || !strings.Contains(msg.(string), "not implemented by the fake") {
		t.Errorf("unimplemented field error = %v", msg)
	}
}

func TestGraphQLAddSubIssue(t *testing.T) {
	f, _, tok := gqlStory(t)
	ids := post(t, f, tok, `{ repository(owner: "acme", name: "widgets") { p: issue(number: 4) { id } c: issue(number: 2) { id } } }`, nil)
	got := post(t, f, tok, `mutation($p: ID!, $c: ID!) { addSubIssue(input: {issueId: $p, subIssueId: $c}) { issue { subIssuesSummary { total } } subIssue { parent { number } } } }`,
		map[string]any{"p": dig(ids, "data", "repository", "p", "id"), "c": dig(ids, "data", "repository", "c", "id")})
	if errs := got["errors"]; errs != nil {
		t.Fatalf("errors: %v", errs)
	}
	if dig(got, "data", "addSubIssue", "issue", "subIssuesSummary", "total") != float64(2) || dig(got, "data", "addSubIssue", "subIssue", "parent", "number") != float64(4) {
		t.Errorf("addSubIssue = %v", got["data"])
	}
	again := post(t, f, tok, `mutation($p: ID!, $c: ID!) { addSubIssue(input: {issueId: $p, subIssueId: $c}) { clientMutationId } }`,
		map[string]any{"p": dig(ids, "data", "repository", "c", "id"), "c": dig(ids, "data", "repository", "p", "id")})
	if again["errors"] == nil {
		t.Errorf("a cycle was accepted")
	}
}

func TestScenarioLeftovers(t *testing.T) {
	f, repo, _, c := installed(t)
	if f.HTTPClient() == nil {
		t.Fatal("HTTPClient is nil")
	}
	f.InjectFault("*", ghfake.Fault{Kind: ghfake.FaultStatus})
	f.ClearFaults()
	if _, _, err := c.Repositories.Get(ctx, "acme", "widgets"); err != nil {
		t.Errorf("after ClearFaults: %v", err)
	}
	repo.Branch("x", "main")
	repo.Commit("x", "w", map[string]string{"w": "w\n"})
	pr := repo.OpenPR("alice", "x", "main", "t", "")
	pr.ClosePR("alice")
	got, _, _ := c.PullRequests.Get(ctx, "acme", "widgets", pr.Number())
	if got.GetState() != "closed" || got.GetMerged() {
		t.Errorf("closed PR = %s merged %v", got.GetState(), got.GetMerged())
	}
	f.ResetLog()
	if _, _, err := c.Issues.CreateComment(ctx, "acme", "widgets", pr.Number(), nil); err == nil {
		t.Errorf("empty comment accepted")
	}
	f.VerifyWrites(t, "POST /repos/{owner}/{repo}/issues/{issue_number}/comments")
}
