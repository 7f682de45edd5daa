package ghfake_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// evidenceQuery is how the App reads an audit's evidence bundle: files by
// "sha:path" and a directory's entries, each expression a variable.
const evidenceQuery = `query($owner: String!, $name: String!, $e0: String!, $e1: String!, $t0: String!) { repository(owner: $owner, name: $name) {
  f0: object(expression: $e0) { __typename ... on Blob { byteSize isBinary isTruncated text } }
  f1: object(expression: $e1) { __typename ... on Blob { byteSize isBinary isTruncated text } }
  d0: object(expression: $t0) { ... on Tree { entries { name mode type } } }
} }`

// TestGraphQLEvidenceTour runs evidenceQuery on a bundle holding a regular
// file, an executable, a link to a file, a link to a directory and a file
// in that directory: links read as blobs holding their target, a path
// through a link is null, and entries tell the kinds apart by mode.
func TestGraphQLEvidenceTour(t *testing.T) {
	run, sha := evidenceStory(t)
	blob := func(text string) any {
		return map[string]any{"__typename": "Blob", "byteSize": float64(len(text)), "isBinary": false, "isTruncated": false, "text": text}
	}
	entry := func(name string, mode int, typ string) any {
		return map[string]any{"name": name, "mode": float64(mode), "type": typ}
	}
	tests := []struct {
		name       string
		e0, e1, t0 string
		want       map[string]any
	}{
		{"executable, link to a file, their directory", "docs/run/verify.sh", "docs/run/latest.md", "docs/run", map[string]any{
			"f0": blob("#!/bin/sh\ngo test ./...\n"),
			"f1": blob("log.md"),
			"d0": map[string]any{"entries": []any{entry("current", 40960, "blob"), entry("latest.md", 40960, "blob"),
				entry("log.md", 33188, "blob"), entry("verify.sh", 33261, "blob")}},
		}},
		{"link to a directory, a path through it, the real directory", "docs/run/current", "docs/run/current/out.txt", "docs/evidence/r1/", map[string]any{
			"f0": blob("../evidence/r1"),
			"f1": nil,
			"d0": map[string]any{"entries": []any{entry("out.txt", 33188, "blob")}},
		}},
		{"regular file, the file in the directory, a blob as tree", "docs/run/log.md", "docs/evidence/r1/out.txt", "docs/run/log.md", map[string]any{
			"f0": blob("# Log\n"),
			"f1": blob("ok\n"),
			"d0": map[string]any{},
		}},
		{"root", "README.md", "docs", "", map[string]any{
			"f0": blob("# widgets\n"),
			"f1": map[string]any{"__typename": "Tree"},
			"d0": map[string]any{"entries": []any{entry(".github", 16384, "tree"), entry("README.md", 33188, "blob"), entry("docs", 16384, "tree")}},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vars := map[string]any{"owner": "acme", "name": "widgets", "e0": sha + ":" + tc.e0, "e1": sha + ":" + tc.e1, "t0": sha + ":" + tc.t0}
			got := dig(run(evidenceQuery, vars), "data", "repository")
			if diff := cmp.Diff(any(tc.want), got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
