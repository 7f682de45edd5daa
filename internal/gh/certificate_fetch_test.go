package gh_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestListCheckRunsNamed reads the certificate runs of three writers on one
// commit: the App's own (two attempts), another App's and GitHub Actions'
// of the same name; runs of other names and commits are left out.
func TestListCheckRunsNamed(t *testing.T) {
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	sha := repo.Commit("main", "merge", map[string]string{"a.go": "package a\n"})
	other := repo.Commit("main", "later", map[string]string{"b.go": "package a\n"})
	app := f.App(777, ghfake.NewAppKey())
	inst := app.Install("acme", ghfake.Permissions{"checks": "write"}, repo)
	p := gh.NewCheckPublisher(f.Client(inst.Token()), app.ID)
	p.WritePause = 0
	ctx := context.Background()
	first := checks.Run{Name: checks.NameCertificate, HeadSHA: sha, ExternalID: "sha256:aa", Conclusion: checks.ConclusionSuccess, Title: "one", Summary: "s1"}
	second := first
	second.ExternalID, second.Title, second.Summary = "sha256:bb", "two", "s2"
	for _, r := range []checks.Run{first, second, withHead(first, other), withName(first, "aepgate/readback")} {
		if _, err := p.Publish(ctx, "acme", "widgets", r); err != nil {
			t.Fatal(err)
		}
	}
	foreign := repo.AddCheckRun(888, sha, checks.NameCertificate, "completed", "success")
	actionsClient := f.Client(f.ActionsToken(repo, ghfake.Permissions{"checks": "write"}))
	if _, err := gh.NewCheckPublisher(actionsClient, 0).PublishNew(ctx, "acme", "widgets", first); err != nil {
		t.Fatal(err)
	}

	got, err := gh.ListCheckRunsNamed(ctx, f.Client(f.UserToken("reader")), "acme", "widgets", sha, checks.NameCertificate)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		App   string
		AppID int64
		Title string
	}
	var rows []row
	for _, r := range got {
		if r.Name != checks.NameCertificate || r.HeadSHA != sha || r.ID == 0 || r.HTMLURL == "" {
			t.Errorf("run %+v: wrong name, head or identity", r)
		}
		rows = append(rows, row{r.AppSlug, r.AppID, r.Title})
	}
	want := []row{{"github-actions", ghfake.ActionsAppID, "one"}, {"app-888", 888, ""}, {"app-777", 777, "two"}, {"app-777", 777, "one"}}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
	if got[1].ID != foreign {
		t.Errorf("foreign run id %d, want %d", got[1].ID, foreign)
	}
	if got[2].Summary != "s2" || got[2].ExternalID != "sha256:bb" || got[2].Conclusion != "success" || got[2].Status != "completed" {
		t.Errorf("newest App run: %+v", got[2])
	}
}

// TestListCheckRunsNamedPages follows pagination and refuses a list longer
// than it reads, rather than returning part of it.
func TestListCheckRunsNamedPages(t *testing.T) {
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	sha := repo.Head("main")
	for range 250 {
		repo.AddCheckRun(888, sha, checks.NameCertificate, "completed", "success")
	}
	c := f.Client(f.UserToken("reader"))
	got, err := gh.ListCheckRunsNamed(context.Background(), c, "acme", "widgets", sha, checks.NameCertificate)
	if err != nil || len(got) != 250 {
		t.Fatalf("got %d runs, %v; want 250", len(got), err)
	}
	for range 800 {
		repo.AddCheckRun(888, sha, checks.NameCertificate, "completed", "success")
	}
	if got, err := gh.ListCheckRunsNamed(context.Background(), c, "acme", "widgets", sha, checks.NameCertificate); err == nil || !strings.Contains(err.Error(), "more than 1000") {
		t.Errorf("1,050 runs: got %d runs, error %v; want an error", len(got), err)
	}
	if _, err := gh.ListCheckRunsNamed(context.Background(), c, "acme", "nope", sha, checks.NameCertificate); err == nil {
		t.Error("a missing repository gave no error")
	}
}

func withHead(r checks.Run, sha string) checks.Run  { r.HeadSHA = sha; return r }
func withName(r checks.Run, name string) checks.Run { r.Name = name; return r }
