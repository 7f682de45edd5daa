package gh

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/vektah/gqlparser/v2"

	"github.com/aepgate/aepgate/internal/testkit/fixtures"
)

func TestReadFilesDecodes(t *testing.T) {
	in, queries := gqlServer(t, `{"data":{"repository":{
		"f0":{"__typename":"Blob","isBinary":false,"isTruncated":false,"text":"package a\n"},
		"f1":{"__typename":"Blob","isBinary":false,"isTruncated":false,"text":"../secret"},
		"f2":null,
		"f3":{"__typename":"Blob","isBinary":true,"isTruncated":false,"text":null},
		"f4":{"__typename":"Blob","isBinary":false,"isTruncated":true,"text":"xx"},
		"f5":{"__typename":"Tree"},
		"d0":{"entries":[{"name":"main.go","mode":33188}]},
		"d1":{"entries":[{"name":"a.go","mode":33188},{"name":"link","mode":40960}]}}}}`)
	paths := []string{"src/a.go", "src/link", "src/gone.go", "logo.png", "big.txt", "src"}
	got, err := in.ReadFiles(context.Background(), "acme", "app", "0123456789abcdef0123456789abcdef01234567", paths)
	if err != nil {
		t.Fatal(err)
	}
	want := []BlobFile{
		{Path: "src/a.go", Content: []byte("package a\n")},
		{Path: "src/link", Content: []byte("../secret"), Symlink: true},
		{Path: "src/gone.go", Missing: true},
		{Path: "logo.png", Binary: true},
		{Path: "big.txt", Content: []byte("xx"), TooLarge: true},
		{Path: "src", Missing: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if len(*queries) != 1 || strings.Contains((*queries)[0], "src/a.go") {
		t.Errorf("want one query with the paths as variables, got %d:\n%s", len(*queries), (*queries)[0])
	}
}

func TestReadFilesBounds(t *testing.T) {
	in, queries := gqlServer(t, `{}`)
	if _, err := in.ReadFiles(context.Background(), "acme", "app", "sha", make([]string, MaxFilesRead+1)); err == nil {
		t.Error("65 paths read")
	}
	if got, err := in.ReadFiles(context.Background(), "acme", "app", "sha", nil); err != nil || got != nil || len(*queries) != 0 {
		t.Errorf("no paths: %v %v after %d queries", got, err, len(*queries))
	}
}

func TestFilesQueryMatchesGitHubSchema(t *testing.T) {
	schema := loadSchema(t, string(fixtures.Schema(t)))
	q, _, _ := filesQuery("acme", "app", "sha", []string{"a.go", "dir/b.go", "dir/c.go"})
	if _, errs := gqlparser.LoadQueryWithRules(schema, q, nil); len(errs) > 0 {
		t.Errorf("query invalid: %v\n%s", errs, q)
	}
}

func TestWorkflowRunsAtQueryMatchesGitHubSchema(t *testing.T) {
	schema := loadSchema(t, string(fixtures.Schema(t)))
	if _, errs := gqlparser.LoadQueryWithRules(schema, workflowRunsAtQuery, nil); len(errs) > 0 {
		t.Errorf("query invalid: %v", errs)
	}
}

func TestReadFilesRemembersFilesAtACommit(t *testing.T) {
	in, queries := gqlServer(t,
		`{"data":{"repository":{"f0":{"__typename":"Blob","isBinary":false,"isTruncated":false,"text":"a\n"},"d0":{"entries":[]}}}}`,
		`{"data":{"repository":{"f0":{"__typename":"Blob","isBinary":false,"isTruncated":false,"text":"b\n"},"d0":{"entries":[]}}}}`)
	ctx := context.Background()
	sha := strings.Repeat("1", 40)
	for range 2 {
		got, err := in.ReadFiles(ctx, "acme", "app", sha, []string{"a.go"})
		if err != nil || len(got) != 1 || string(got[0].Content) != "a\n" {
			t.Fatalf("ReadFiles = %+v, %v", got, err)
		}
	}
	got, err := in.ReadFiles(ctx, "acme", "app", sha, []string{"a.go", "b.go"})
	if err != nil || string(got[0].Content) != "a\n" || string(got[1].Content) != "b\n" || got[1].Path != "b.go" {
		t.Fatalf("ReadFiles = %+v, %v", got, err)
	}
	if len(*queries) != 2 || !strings.Contains((*queries)[1], "f0") || strings.Contains((*queries)[1], "f1") {
		t.Errorf("%d queries; the second must ask only for the file not read before:\n%v", len(*queries), *queries)
	}
}

func TestThreadPageQueriesMatchGitHubSchema(t *testing.T) {
	schema := loadSchema(t, string(fixtures.Schema(t)))
	for _, q := range []string{threadPageQuery, reviewPageQuery, attemptsPageQuery} {
		if _, errs := gqlparser.LoadQueryWithRules(schema, q, nil); len(errs) > 0 {
			t.Errorf("query invalid: %v\n%s", errs, q)
		}
	}
}
