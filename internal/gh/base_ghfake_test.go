package gh_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// baseWorld is an installation on every repository of acme, whose
// widgets repository extends acme/.github:aepgate.yml; other/policy exists
// outside the installation.
func baseWorld(t *testing.T) (*ghfake.Fake, *ghfake.Repo, *gh.Installation) {
	t.Helper()
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	org := f.CreateRepo("acme/.github")
	org.Commit("main", "policy", map[string]string{"aepgate.yml": "version: 1\nowners: [olivia]\n", "policies/a.yml": "version: 1\n"})
	f.CreateRepo("other/policy").Commit("main", "policy", map[string]string{"aepgate.yml": "version: 1\n"})
	key := ghfake.NewAppKey()
	inst := f.App(32, key).Install("acme", ghfake.Permissions{"metadata": "read", "contents": "read", "pull_requests": "read", "issues": "read", "checks": "read"})
	clients := gh.NewClients(gh.NewAppAuth(32, key, f.URL(), nil), f.URL())
	in, err := clients.Installation(inst.ID)
	if err != nil {
		t.Fatal(err)
	}
	return f, repo, in
}

func TestReadBase(t *testing.T) {
	_, _, in := baseWorld(t)
	for _, tt := range []struct {
		ref, want, unreadable string
	}{
		{ref: "acme/.github:aepgate.yml", want: "version: 1\nowners: [olivia]\n"},
		{ref: "acme/.github:policies/a.yml", want: "version: 1\n"},
		{ref: "acme/.github:missing.yml", unreadable: "missing.yml is not on the default branch of acme/.github"},
		{ref: "acme/.github:policies", unreadable: "policies is a directory in acme/.github"},
		{ref: "other/policy:aepgate.yml", unreadable: "or the App may not see that repository"},
		{ref: "acme/.github:aepgate.yml@v1", unreadable: "default branch"},
	} {
		t.Run(tt.ref, func(t *testing.T) {
			got, err := in.ReadBase(context.Background(), tt.ref)
			if err != nil {
				t.Fatal(err)
			}
			if got.Ref != tt.ref || got.Text != tt.want || !strings.Contains(got.Unreadable, tt.unreadable) || (tt.unreadable == "") != (got.Unreadable == "") {
				t.Errorf("ReadBase(%q) = %+v, want text %q, unreadable containing %q", tt.ref, got, tt.want, tt.unreadable)
			}
		})
	}
}

// TestSnapshotReadsBaseOnce: a snapshot of a repository whose config
// extends a base reads the base once, through the Contents API; the next
// snapshot's read is conditional, answered 304 (no rate-limit charge), and
// gives the same base. A config that extends nothing reads no base.
func TestSnapshotReadsBaseOnce(t *testing.T) {
	ghfake.RequireGraphQL(t)
	f, repo, in := baseWorld(t)
	ctx := context.Background()
	repo.Commit("main", "config", map[string]string{".github/aepgate.yml": "version: 1\nextends: acme/.github:aepgate.yml\n"})
	reads := func() []int {
		var out []int
		for _, r := range f.Requests() {
			if r.Method == http.MethodGet && strings.HasSuffix(r.Path, "/repos/acme/.github/contents/aepgate.yml") {
				out = append(out, r.Status)
			}
		}
		return out
	}
	var bases []*snapshot.BaseFile
	for range 2 {
		s, err := in.Snapshot(ctx, gh.SnapshotRequest{Owner: "acme", Repo: "widgets"})
		if err != nil {
			t.Fatal(err)
		}
		bases = append(bases, s.Config.Base)
	}
	if diff := cmp.Diff([]int{http.StatusOK, http.StatusNotModified}, reads()); diff != "" {
		t.Errorf("base reads of two snapshots (-want +got):\n%s", diff)
	}
	want := &snapshot.BaseFile{Ref: "acme/.github:aepgate.yml", Text: "version: 1\nowners: [olivia]\n"}
	if diff := cmp.Diff([]*snapshot.BaseFile{want, want}, bases); diff != "" {
		t.Errorf("bases (-want +got):\n%s", diff)
	}
	repo.Commit("main", "standalone", map[string]string{".github/aepgate.yml": "version: 1\n"})
	s, err := in.Snapshot(ctx, gh.SnapshotRequest{Owner: "acme", Repo: "widgets"})
	if err != nil || s.Config.Base != nil || len(reads()) != 2 {
		t.Errorf("a config extending nothing: base %+v, %d reads, err %v; want no base read", s.Config.Base, len(reads()), err)
	}
}
