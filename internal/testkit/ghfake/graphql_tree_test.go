package ghfake_test

import (
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-cmp/cmp"
)

// evidenceStory is gqlStory with the evidence bundle committed on main; it
// returns that commit's SHA.
func evidenceStory(t *testing.T) (run func(q string, vars map[string]any) map[string]any, sha string) {
	t.Helper()
	f, repo, tok := gqlStory(t)
	sha = repo.Commit("main", "evidence", evidence)
	return func(q string, vars map[string]any) map[string]any {
		t.Helper()
		got := post(t, f, tok, q, vars)
		if errs := got["errors"]; errs != nil {
			t.Fatalf("errors: %v", errs)
		}
		return got
	}, sha
}

func TestGraphQLTreeEntries(t *testing.T) {
	run, sha := evidenceStory(t)
	q := `query($e: String!) { repository(owner: "acme", name: "widgets") { object(expression: $e) {
  __typename ... on Tree { entries { name path type mode object { __typename ... on Blob { byteSize isBinary isTruncated text } } } } } } }`
	blob := func(text string) map[string]any {
		return map[string]any{"__typename": "Blob", "byteSize": float64(len(text)), "isBinary": false, "isTruncated": false, "text": text}
	}
	entry := func(name, path, typ string, mode int, obj any) any {
		return map[string]any{"name": name, "path": path, "type": typ, "mode": float64(mode), "object": obj}
	}
	tree := map[string]any{"__typename": "Tree"}
	run2 := []any{
		entry("current", "docs/run/current", "blob", 40960, blob("../evidence/r1")),
		entry("latest.md", "docs/run/latest.md", "blob", 40960, blob("log.md")),
		entry("log.md", "docs/run/log.md", "blob", 33188, blob("# Log\n")),
		entry("verify.sh", "docs/run/verify.sh", "blob", 33261, blob("#!/bin/sh\ngo test ./...\n")),
	}
	tests := []struct {
		expr string
		want any
	}{
		{sha + ":docs/run", run2},
		{sha + ":docs/run/", run2}, // a trailing slash names the same directory
		{"main:docs", []any{entry("evidence", "docs/evidence", "tree", 16384, tree), entry("run", "docs/run", "tree", 16384, tree)}},
		{sha + ":", []any{entry(".github", ".github", "tree", 16384, tree), entry("README.md", "README.md", "blob", 33188, blob("# widgets\n")),
			entry("docs", "docs", "tree", 16384, tree)}},
	}
	for _, tc := range tests {
		got := dig(run(q, map[string]any{"e": tc.expr}), "data", "repository", "object", "entries")
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s entries (-want +got):\n%s", tc.expr, diff)
		}
	}
}

// TestGraphQLTreeOfCommit reads Commit.tree and a Tree reached by oid: the
// root's entries, paths from the root.
func TestGraphQLTreeOfCommit(t *testing.T) {
	run, sha := evidenceStory(t)
	got := run(`query($e: String!) { repository(owner: "acme", name: "widgets") { object(expression: $e) {
  ... on Commit { tree { oid entries { name path mode type oid } } file(path: "docs/run/verify.sh") { name path mode type } } } } }`,
		map[string]any{"e": sha})
	c := dig(got, "data", "repository", "object")
	names := []any{}
	for _, e := range dig(c, "tree", "entries").([]any) {
		names = append(names, dig(e, "path"))
	}
	if diff := cmp.Diff([]any{".github", "README.md", "docs"}, names); diff != "" {
		t.Errorf("Commit.tree entries (-want +got):\n%s", diff)
	}
	wantFile := map[string]any{"name": "verify.sh", "path": "docs/run/verify.sh", "mode": float64(33261), "type": "blob"}
	if diff := cmp.Diff(wantFile, dig(c, "file")); diff != "" {
		t.Errorf("Commit.file (-want +got):\n%s", diff)
	}
	docs, _ := dig(c, "tree", "entries", 2, "oid").(string)
	byOid := run(`query($o: GitObjectID!) { repository(owner: "acme", name: "widgets") { object(oid: $o) {
  ... on Tree { entries { name path } } } } }`, map[string]any{"o": docs})
	want := []any{map[string]any{"name": "evidence", "path": "evidence"}, map[string]any{"name": "run", "path": "run"}}
	if diff := cmp.Diff(want, dig(byOid, "data", "repository", "object", "entries")); diff != "" {
		t.Errorf("tree by oid (-want +got):\n%s", diff)
	}
}

// TestGraphQLExpressionPaths resolves "rev:path" as git does: no link is
// followed, a trailing slash only after a directory, no empty, "." or ".."
// component.
func TestGraphQLExpressionPaths(t *testing.T) {
	run, sha := evidenceStory(t)
	tests := []struct {
		path string
		want any // __typename, or nil
	}{
		{"", "Tree"},
		{"docs/run/current", "Blob"},
		{"docs/run/current/out.txt", nil},
		{"docs/run/current/", nil},
		{"docs/evidence/r1/out.txt", "Blob"},
		{"docs/run/log.md/", nil},
		{"docs//run", nil},
		{"/docs", nil},
		{"./docs", nil},
		{"docs/../README.md", nil},
		{"missing", nil},
	}
	for _, tc := range tests {
		got := run(`query($e: String!) { repository(owner: "acme", name: "widgets") { object(expression: $e) { __typename } } }`,
			map[string]any{"e": sha + ":" + tc.path})
		if v := dig(got, "data", "repository", "object", "__typename"); v != tc.want {
			t.Errorf("%q: __typename = %v, want %v", tc.path, v, tc.want)
		}
	}
}

// TestGraphQLTreeNeedsContents reaches a commit's tree through a pull
// request with a token that may read pull requests but not contents: the
// tree's oid is readable, its entries are FORBIDDEN.
func TestGraphQLTreeNeedsContents(t *testing.T) {
	f, repo, _ := gqlStory(t)
	tok := f.ActionsToken(repo, ghfake.Permissions{"pull_requests": "read"})
	got := post(t, f, tok, `{ repository(owner: "acme", name: "widgets") { pullRequest(number: 3) {
  commits(first: 1) { nodes { commit { tree { oid entries { name } } } } } } } }`, nil)
	tree := dig(got, "data", "repository", "pullRequest", "commits", "nodes", 0, "commit", "tree")
	if oid, _ := dig(tree, "oid").(string); oid == "" || dig(tree, "entries") != nil {
		t.Errorf("tree = %v, want its oid and no entries", tree)
	}
	if kind := dig(got, "errors", 0, "type"); kind != "FORBIDDEN" {
		t.Errorf("errors = %v, want FORBIDDEN", got["errors"])
	}
}
