package gh_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

func checkRun(sha string, problems int) checks.Run {
	r := checks.Run{Name: "aepgate/merge", HeadSHA: sha, ExternalID: "sha256:feed", Conclusion: checks.ConclusionFailure,
		Title: fmt.Sprintf("%d problems", problems), Summary: strings.Repeat("x\n", 40_000)}
	for i := range problems {
		r.Annotations = append(r.Annotations, checks.Annotation{Path: "a.go", StartLine: i + 1, Level: checks.LevelWarning, Message: "m"})
	}
	return r
}

// TestCheckPublisherAgainstGhfake publishes as an installed App: the search
// is narrowed by app_id, 120 annotations take three requests, the summary
// is cut, and a second publish finds the run and writes nothing.
func TestCheckPublisherAgainstGhfake(t *testing.T) {
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	sha := repo.Commit("main", "init", map[string]string{"a.go": "package a\n"})
	app := f.App(777, ghfake.NewAppKey())
	inst := app.Install("acme", ghfake.Permissions{"checks": "write"}, repo)
	other := f.App(888, ghfake.NewAppKey())
	repo.AddCheckRun(other.ID, sha, "aepgate/merge", "completed", "success") // another App's run of the same name

	p := gh.NewCheckPublisher(f.Client(inst.Token()), app.ID)
	p.WritePause = 0
	id, err := p.Publish(context.Background(), "acme", "widgets", checkRun(sha, 120))
	if err != nil {
		t.Fatal(err)
	}
	var ours []ghfake.CheckRun
	for _, r := range repo.CheckRuns(sha) {
		if r.AppID == app.ID {
			ours = append(ours, r)
		}
	}
	if len(ours) != 1 || ours[0].ID != id || len(ours[0].Annotations) != 120 {
		t.Fatalf("our runs: %+v", ours)
	}
	if len(ours[0].Summary) > checks.MaxSummaryBytes || !strings.Contains(ours[0].Summary, "aepgate cut this summary") {
		t.Errorf("summary of %d bytes not cut with a note", len(ours[0].Summary))
	}
	if n := len(f.Writes()); n != 3 {
		t.Errorf("writes = %d, want 3 (create + 2 pages):\n%s", n, f.WriteLog())
	}
	f.ResetLog()
	id2, err := p.Publish(context.Background(), "acme", "widgets", checkRun(sha, 120))
	if err != nil || id2 != id {
		t.Fatalf("second publish: id %d (want %d), %v", id2, id, err)
	}
	if n := len(f.Writes()); n != 0 {
		t.Errorf("second publish wrote:\n%s", f.WriteLog())
	}
}

func TestCheckPublisherReadOnlyToken(t *testing.T) {
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	sha := repo.Commit("main", "init", map[string]string{"a.go": "package a\n"})
	c, err := gh.NewActionsClient(strings.TrimSuffix(f.URL(), "/"), f.ActionsToken(repo, ghfake.Permissions{"checks": "read"}), f.HTTPClient())
	if err != nil {
		t.Fatal(err)
	}
	p := gh.NewCheckPublisher(c, 0)
	_, err = p.Publish(context.Background(), "acme", "widgets", checkRun(sha, 1))
	if !errors.Is(err, gh.ErrCheckForbidden) {
		t.Fatalf("err = %v, want ErrCheckForbidden", err)
	}
	if n := len(repo.CheckRuns(sha)); n != 0 {
		t.Errorf("%d runs written with a read-only token", n)
	}
}

func TestNewActionsClientURLs(t *testing.T) {
	tests := []struct{ api, want string }{
		{"", "https://api.github.com/"},
		{"https://api.github.com", "https://api.github.com/"},
		{"https://ghes.example/api/v3", "https://ghes.example/api/v3/"},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080/"},
	}
	for _, tt := range tests {
		c, err := gh.NewActionsClient(tt.api, "t", nil)
		if err != nil || c.BaseURL.String() != tt.want {
			t.Errorf("NewActionsClient(%q) = %v, %v; want %s", tt.api, c.BaseURL, err, tt.want)
		}
	}
	for _, bad := range []string{"not a url", "/relative"} {
		if _, err := gh.NewActionsClient(bad, "t", nil); err == nil {
			t.Errorf("NewActionsClient(%q) accepted", bad)
		}
	}
	if _, err := gh.NewActionsClient("", "", nil); err == nil {
		t.Error("an empty token was accepted")
	}
}

func TestReadRepoFile(t *testing.T) {
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	base := repo.Commit("main", "config", map[string]string{".github/aepgate.yml": "version: 1\n"})
	repo.Commit("main", "change", map[string]string{".github/aepgate.yml": "version: 2\n"})
	c := f.Client(f.ActionsToken(repo, ghfake.Permissions{"contents": "read"}))
	tests := []struct {
		path, ref string
		want      string
		found     bool
	}{
		{".github/aepgate.yml", base, "version: 1\n", true},
		{".github/aepgate.yml", "main", "version: 2\n", true},
		{".github/none.yml", base, "", false},
	}
	for _, tt := range tests {
		got, found, err := gh.ReadRepoFile(context.Background(), c, "acme", "widgets", tt.path, tt.ref)
		if err != nil || found != tt.found || string(got) != tt.want {
			t.Errorf("ReadRepoFile(%s@%s) = %q, %v, %v; want %q, %v", tt.path, tt.ref, got, found, err, tt.want, tt.found)
		}
	}
	noPerm := f.Client(f.ActionsToken(repo, ghfake.Permissions{"checks": "write"}))
	if _, _, err := gh.ReadRepoFile(context.Background(), noPerm, "acme", "widgets", ".github/aepgate.yml", base); err == nil {
		t.Error("a token without contents: read read the file")
	}
}
