package ghfake_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestProjectReadFilesAgainstFake reads the evidence bundle through
// internal/gh's own ReadFiles: links are told apart by their directory's
// entries and hold their target; a path through a link to a directory is
// missing.
func TestProjectReadFilesAgainstFake(t *testing.T) {
	f, repo, _ := gqlStory(t)
	sha := repo.Commit("main", "evidence", evidence)
	app := f.App(77, testKey())
	inst := app.Install("acme", ghfake.Permissions{"contents": "read"}, repo)
	clients := gh.NewClients(gh.NewAppAuth(77, testKey(), f.URL(), nil), f.URL())
	in, err := clients.Installation(inst.ID)
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"README.md", "docs/run/log.md", "docs/run/verify.sh", "docs/run/latest.md", "docs/run/current", "docs/run/current/out.txt"}
	got, err := in.ReadFiles(ctx, "acme", "widgets", sha, paths)
	if err != nil {
		t.Fatalf("ReadFiles: %v", err)
	}
	want := []gh.BlobFile{
		{Path: "README.md", Content: []byte("# widgets\n")},
		{Path: "docs/run/log.md", Content: []byte("# Log\n")},
		{Path: "docs/run/verify.sh", Content: []byte("#!/bin/sh\ngo test ./...\n")},
		{Path: "docs/run/latest.md", Content: []byte("log.md"), Symlink: true},
		{Path: "docs/run/current", Content: []byte("../evidence/r1"), Symlink: true},
		{Path: "docs/run/current/out.txt", Missing: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ReadFiles (-want +got):\n%s", diff)
	}
}
