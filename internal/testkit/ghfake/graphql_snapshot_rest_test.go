package ghfake_test

import (
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-cmp/cmp"
)

// TestGraphQLSnapshotMatchesREST reads the snapshot story through REST and
// GraphQL and finds the same IDs, URLs, SHAs, timestamps and users (a Bot's
// GraphQL login without REST's "[bot]").
func TestGraphQLSnapshotMatchesREST(t *testing.T) {
	s := snapshotStory(t)
	pr := dig(post(t, s.f, s.tok, snapshotQuery, map[string]any{"owner": "acme", "name": "widgets"}), "data", "repository", "pullRequest")
	comments, _, err := s.c.Issues.ListComments(ctx, "acme", "widgets", 3, nil)
	must(t, "ListComments", err)
	var rest []any
	for _, c := range comments {
		login, _ := strings.CutSuffix(c.GetUser().GetLogin(), "[bot]")
		rest = append(rest, m{"databaseId": num(c.GetID()), "url": c.GetHTMLURL(), "body": c.GetBody(),
			"createdAt": c.GetCreatedAt().Format(rfc3339), "updatedAt": c.GetUpdatedAt().Format(rfc3339),
			"author": actorOf(c.GetUser().GetType(), login)})
	}
	if diff := cmp.Diff(rest, pick(dig(pr, "comments", "nodes"), "databaseId", "url", "body", "createdAt", "updatedAt", "author")); diff != "" {
		t.Errorf("comments: REST (-) vs GraphQL (+):\n%s", diff)
	}
	reviews, _, err := s.c.PullRequests.ListReviews(ctx, "acme", "widgets", 3, nil)
	must(t, "ListReviews", err)
	rest = nil
	for _, r := range reviews {
		rest = append(rest, m{"databaseId": num(r.GetID()), "url": r.GetHTMLURL(), "state": r.GetState(),
			"submittedAt": r.GetSubmittedAt().Format(rfc3339), "commit": m{"oid": r.GetCommitID()}})
	}
	if diff := cmp.Diff(rest, pick(dig(pr, "reviews", "nodes"), "databaseId", "url", "state", "submittedAt", "commit")); diff != "" {
		t.Errorf("reviews: REST (-) vs GraphQL (+):\n%s", diff)
	}
	run, _, err := s.c.Actions.GetWorkflowRunByID(ctx, "acme", "widgets", s.runID)
	must(t, "GetWorkflowRunByID", err)
	ci, _, err := s.c.Checks.GetCheckRun(ctx, "acme", "widgets", s.ciRun)
	must(t, "GetCheckRun", err)
	if run.GetCheckSuiteID() != ci.GetCheckSuite().GetID() {
		t.Errorf("workflow run's check suite %d, its check run's %d", run.GetCheckSuiteID(), ci.GetCheckSuite().GetID())
	}
	wantRun := m{"databaseId": num(run.GetID()), "runNumber": float64(run.GetRunNumber()), "event": run.GetEvent(), "url": run.GetHTMLURL(), "workflow": m{"name": run.GetName()}}
	if diff := cmp.Diff(wantRun, dig(pr, "headCommit", "nodes", 0, "commit", "checkSuites", "nodes", 0, "workflowRun")); diff != "" {
		t.Errorf("workflowRun: REST (-) vs GraphQL (+):\n%s", diff)
	}
}

const rfc3339 = "2006-01-02T15:04:05Z07:00"

// pick keeps only keys of each object in list.
func pick(list any, keys ...string) []any {
	var out []any
	for _, v := range list.([]any) {
		o := m{}
		for _, k := range keys {
			o[k] = v.(m)[k]
		}
		out = append(out, o)
	}
	return out
}

// TestGraphQLChangedFiles shows each kind of change as REST's status and
// GraphQL's changeType; an unchanged move is one rename.
func TestGraphQLChangedFiles(t *testing.T) {
	ghfake.RequireGraphQL(t)
	f, repo, _, tok := installedToken(t)
	c := client(t, f, tok)
	repo.Commit("main", "base", map[string]string{"keep.txt": "k\n", "gone.txt": "g\n", "old/name.txt": "moved\n"})
	repo.Branch("work", "main")
	repo.Commit("work", "change", map[string]string{"keep.txt": "k2\n", "gone.txt": ghfake.Deleted,
		"old/name.txt": ghfake.Deleted, "new/name.txt": "moved\n", "fresh.txt": "f\n"})
	repo.OpenPR("alice", "work", "main", "t", "")
	files, _, err := c.PullRequests.ListFiles(ctx, "acme", "widgets", 1, nil)
	must(t, "ListFiles", err)
	var rest []string
	for _, fl := range files {
		rest = append(rest, fl.GetFilename()+" "+fl.GetStatus()+" "+fl.GetPreviousFilename())
	}
	wantREST := []string{"fresh.txt added ", "gone.txt removed ", "keep.txt modified ", "new/name.txt renamed old/name.txt"}
	if diff := cmp.Diff(wantREST, rest); diff != "" {
		t.Errorf("REST files (-want +got):\n%s", diff)
	}
	got := post(t, f, tok, `{ repository(owner: "acme", name: "widgets") { pullRequest(number: 1) {
  changedFiles additions deletions files(first: 10) { totalCount nodes { path changeType additions deletions } } } } }`, nil)
	var gql []string
	for _, n := range dig(got, "data", "repository", "pullRequest", "files", "nodes").([]any) {
		gql = append(gql, n.(m)["path"].(string)+" "+n.(m)["changeType"].(string))
	}
	wantGQL := []string{"fresh.txt ADDED", "gone.txt DELETED", "keep.txt MODIFIED", "new/name.txt RENAMED"}
	if diff := cmp.Diff(wantGQL, gql); diff != "" {
		t.Errorf("GraphQL files (-want +got):\n%s", diff)
	}
	totals := pick([]any{dig(got, "data", "repository", "pullRequest")}, "changedFiles", "additions", "deletions")
	if diff := cmp.Diff([]any{m{"changedFiles": 4.0, "additions": 2.0, "deletions": 2.0}}, totals); diff != "" {
		t.Errorf("totals (-want +got):\n%s", diff)
	}
}
