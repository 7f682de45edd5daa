package gh

import (
	"context"
	"testing"

	"github.com/google/go-github/v62/github"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestReadRepoFileWithoutAccess: GitHub hides a private repository from a
// token that may not read it (404). The policy file must then be an error,
// not "absent" (which would mean defaults: no negative controls). With the
// 404 trusted as absence (no root listing), the file does look absent — the
// negative control.
func TestReadRepoFileWithoutAccess(t *testing.T) {
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	repo.SetPrivate(true)
	base := repo.Commit("main", "config", map[string]string{".github/aepgate.yml": "version: 1\n"})
	other := f.CreateRepo("acme/other")
	c := f.Client(f.ActionsToken(other, ghfake.Permissions{"contents": "read"}))
	_, found, err := ReadRepoFile(context.Background(), c, "acme", "widgets", ".github/aepgate.yml", base)
	if err == nil || found {
		t.Fatalf("found %v, err %v; want an error", found, err)
	}
	trust404 := func(context.Context, *github.Client, string, string, string) error { return nil }
	_, found, err = readRepoFile(context.Background(), c, "acme", "widgets", ".github/aepgate.yml", base, trust404)
	if err != nil || found {
		t.Fatalf("with the check off: found %v, err %v; the test does not reach the 404 path", found, err)
	}
}
