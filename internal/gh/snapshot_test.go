package gh

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"

	"github.com/aepgate/aepgate/internal/testkit/fixtures"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// TestSnapshotQueriesMatchGitHubSchema validates the App's queries against
// GitHub's published schema (the fixture predates issue dependencies, so
// the blockedBy variant must fail there on blockedBy alone — which is what
// the feature detection relies on).
func TestSnapshotQueriesMatchGitHubSchema(t *testing.T) {
	data := fixtures.Schema(t)
	schema := loadSchema(t, string(data))
	all := snapshot.Needs{Conversation: true, Files: true, Commits: true, HeadChecks: true, Lanes: true}
	queries := []string{
		queryPlan{pr: 12, appID: 4242, guesses: []int{3, 4}}.query(),
		queryPlan{guesses: []int{3}}.query(),
		queryPlan{pr: 12, appID: 4242, guesses: []int{3}, needs: all}.query(),
		queryPlan{pr: 12, appID: 4242, needs: snapshot.Needs{Conversation: true}}.query(),
		openPullRequestsQuery, affectedQuery(5, []int{1, 2}, false),
	}
	for _, q := range queries {
		if _, errs := gqlparser.LoadQueryWithRules(schema, q, nil); len(errs) > 0 {
			t.Errorf("query invalid: %v\n%s", errs, q)
		}
	}
	_, errs := gqlparser.LoadQueryWithRules(schema, queryPlan{pr: 12, appID: 4242, guesses: []int{3}, blockers: true}.query(), nil)
	if len(errs) == 0 {
		t.Error("the blockedBy variant validated against a schema without blockedBy: the validation checks nothing")
	}
	for _, e := range errs {
		if !strings.Contains(e.Message, `"blockedBy"`) {
			t.Errorf("blockedBy variant fails for another reason: %v", e)
		}
	}
}

// loadSchema parses GitHub's schema, dropping the fields the published file
// declares twice (gqlparser refuses those).
func loadSchema(t *testing.T, text string) *ast.Schema {
	sd, err := parser.ParseSchemas(validator.Prelude, &ast.Source{Name: "schema.graphql", Input: text})
	if err != nil {
		t.Fatal(err)
	}
	for _, def := range sd.Definitions {
		seen := map[string]bool{}
		var fields ast.FieldList
		for _, f := range def.Fields {
			if !seen[f.Name] {
				seen[f.Name] = true
				fields = append(fields, f)
			}
		}
		def.Fields = fields
	}
	schema, err := validator.ValidateSchemaDocument(sd)
	if err != nil {
		t.Fatal(err)
	}
	return schema
}

// gqlServer answers each POST with the next canned answer.
func gqlServer(t *testing.T, answers ...string) (*Installation, *[]string) {
	var queries []string
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Query string }
		b, _ := io.ReadAll(r.Body)
		json.Unmarshal(b, &req)
		queries = append(queries, req.Query)
		i := int(n.Add(1)) - 1
		if i >= len(answers) {
			t.Errorf("unexpected query %d", i)
			i = len(answers) - 1
		}
		io.WriteString(w, answers[i])
	}))
	t.Cleanup(srv.Close)
	return &Installation{hc: srv.Client(), graphqlURL: srv.URL, appID: 4242}, &queries
}

const snapshotAnswer = `{"data":{"repository":{"nameWithOwner":"acme/app",
 "defaultBranchRef":{"name":"main","target":{"oid":"cafe","file":{"object":{"text":"version: 1\n","isTruncated":false}}}},
 "pullRequest":{"number":12,"body":"Work-unit: #3","state":"OPEN","headRefOid":"beef",
   "head":{"nodes":[{"commit":{"oid":"beef","checkSuites":{"nodes":[{"checkRuns":{"nodes":[
     {"databaseId":77,"name":"aepgate/work-unit","status":"COMPLETED","conclusion":"SUCCESS","title":"t","summary":"s","text":null,"externalId":""}]}}]}}}]}},
 "u3":{"__typename":"Issue","number":3,"title":"Export","body":"b","state":"OPEN",
   "blockedBy":{"totalCount":3,"nodes":[{"number":9,"state":"OPEN","repository":{"nameWithOwner":"other/lib"}}]},
   "milestone":{"number":1,"title":"M1","state":"OPEN","description":null,"issues":{"totalCount":21,"nodes":[
     {"number":3,"state":"OPEN","body":"b","blockedBy":{"nodes":[]}}]}}},
 "u4":{"__typename":"PullRequest"},
 "u5":null}}}`

func TestSnapshotDecodes(t *testing.T) {
	in, _ := gqlServer(t, snapshotAnswer)
	got, err := in.Snapshot(context.Background(), SnapshotRequest{Owner: "acme", Repo: "app", PR: 12, Guesses: []int{3, 4, 5}})
	if err != nil {
		t.Fatal(err)
	}
	want := &snapshot.PR{
		Repo:          "acme/app",
		DefaultBranch: "main",
		Config:        snapshot.ConfigFile{Found: true, Text: "version: 1\n", CommitSHA: "cafe"},
		Pull: &snapshot.Pull{Number: 12, Body: "Work-unit: #3", State: "OPEN", HeadSHA: "beef", RunsKnown: true,
			Runs: []snapshot.ExistingRun{{ID: 77, Name: "aepgate/work-unit", Status: "completed", Conclusion: "success", Title: "t", Summary: "s"}}},
		Units: map[int]*workunit.Issue{
			3: {Number: 3, Title: "Export", Open: true, Body: "b", BlockedBy: []workunit.Dep{{Repo: "other/lib", Number: 9, Open: true}}, BlockersUnlisted: 2,
				Milestone: &workunit.Milestone{Number: 1, Title: "M1", Open: true, Truncated: true, Stories: []workunit.Story{{Number: 3, Open: true, Body: "b"}}}},
			4: {Number: 4, IsPullRequest: true},
			5: nil,
		},
		UnitComments:   map[int]snapshot.Thread{},
		UnitAttempts:   map[int]snapshot.Attempts{},
		NativeBlockers: true,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("snapshot (-want +got):\n%s", diff)
	}
}

func TestSnapshotFeatureDetectsBlockedBy(t *testing.T) {
	missing := `{"errors":[{"message":"Field 'blockedBy' doesn't exist on type 'Issue'"}]}`
	plain := strings.ReplaceAll(snapshotAnswer, `"blockedBy":{"totalCount":3,"nodes":[{"number":9,"state":"OPEN","repository":{"nameWithOwner":"other/lib"}}]},`, "")
	in, queries := gqlServer(t, missing, plain, plain)
	snap, err := in.Snapshot(context.Background(), SnapshotRequest{Owner: "acme", Repo: "app", PR: 12, Guesses: []int{3}})
	if err != nil {
		t.Fatal(err)
	}
	if snap.NativeBlockers || len(*queries) != 2 || strings.Contains((*queries)[1], "blockedBy") {
		t.Fatalf("fallback not taken: native=%v queries=%d", snap.NativeBlockers, len(*queries))
	}
	if _, err := in.Snapshot(context.Background(), SnapshotRequest{Owner: "acme", Repo: "app", PR: 12, Guesses: []int{3}}); err != nil || len(*queries) != 3 || strings.Contains((*queries)[2], "blockedBy") {
		t.Fatalf("detection not remembered: %v", err)
	}
}

func TestSnapshotErrors(t *testing.T) {
	in, _ := gqlServer(t, `{"data":{"repository":null},"errors":[{"message":"Could not resolve to a Repository with the name 'acme/gone'."}]}`)
	_, err := in.Snapshot(context.Background(), SnapshotRequest{Owner: "acme", Repo: "gone", PR: 1})
	var ge *GraphQLError
	if !errors.As(err, &ge) || !slices.ContainsFunc(ge.Messages, func(m string) bool { return strings.Contains(m, "Could not resolve") }) {
		t.Fatalf("err = %v, want GitHub's GraphQL error naming the missing repository", err)
	}
	in, _ = gqlServer(t, `oops`)
	if _, err := in.Snapshot(context.Background(), SnapshotRequest{Owner: "acme", Repo: "app", PR: 1}); err == nil {
		t.Fatal("garbage answer accepted")
	}
}

func TestOpenPullRequestsPages(t *testing.T) {
	in, queries := gqlServer(t,
		`{"data":{"repository":{"pullRequests":{"nodes":[{"number":1,"body":"a","headRefOid":"x"}],"pageInfo":{"hasNextPage":true,"endCursor":"c1"}}}}}`,
		`{"data":{"repository":{"pullRequests":{"nodes":[{"number":2,"body":"b","headRefOid":"y"}],"pageInfo":{"hasNextPage":false,"endCursor":"c2"}}}}}`)
	got, err := in.OpenPullRequests(context.Background(), "acme", "app")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1].Number != 2 || len(*queries) != 2 {
		t.Fatalf("got %+v after %d queries", got, len(*queries))
	}
}

func TestAffectedUnits(t *testing.T) {
	in, queries := gqlServer(t, `{"data":{"repository":{
		"m2":{"issues":{"nodes":[{"number":7},{"number":8}]}},
		"i5":{"blocking":{"nodes":[{"number":9}]},"milestone":{"issues":{"nodes":[{"number":5},{"number":6}]}}}}}}`)
	got, err := in.AffectedUnits(context.Background(), "acme", "app", 5, []int{2})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]bool{5: true, 6: true, 7: true, 8: true, 9: true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("affected (-want +got):\n%s", diff)
	}
	if len(*queries) != 1 {
		t.Errorf("%d queries, want 1", len(*queries))
	}
	if got, _ := in.AffectedUnits(context.Background(), "acme", "app", 0, nil); len(got) != 0 || len(*queries) != 1 {
		t.Errorf("nothing changed still queried: %v", got)
	}
}

func TestSnapshotMissingUnitIsNil(t *testing.T) {
	for _, where := range []string{`"type":"NOT_FOUND"`, `"extensions":{"type":"NOT_FOUND"}`} {
		answer := `{"data":{"repository":{"nameWithOwner":"acme/app","defaultBranchRef":null,
			"pullRequest":{"number":1,"body":"Work-unit: #999","state":"OPEN","headRefOid":"beef","head":{"nodes":[]}},"u999":null}},
			"errors":[{` + where + `,"path":["repository","u999"],"message":"Could not resolve to an Issue with the number of 999."}]}`
		in, _ := gqlServer(t, answer)
		snap, err := in.Snapshot(context.Background(), SnapshotRequest{Owner: "acme", Repo: "app", PR: 1, Guesses: []int{999}})
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		if u, ok := snap.Units[999]; !ok || u != nil || snap.Pull == nil {
			t.Errorf("%s: units %v, PR %v", where, snap.Units, snap.Pull)
		}
	}
	// A missing repository is a failure, not a fact.
	in, _ := gqlServer(t, `{"data":{"repository":null},"errors":[{"type":"NOT_FOUND","path":["repository"],"message":"Could not resolve to a Repository"}]}`)
	if _, err := in.Snapshot(context.Background(), SnapshotRequest{Owner: "acme", Repo: "gone", PR: 1}); err == nil {
		t.Error("a missing repository was accepted")
	}
}
