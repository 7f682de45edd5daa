package ghfake_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/golang-jwt/jwt/v5"
	"github.com/google/go-github/v62/github"
)

func TestAppJWTIssuesInstallationToken(t *testing.T) {
	f := ghfake.New(t)
	f.CreateRepo("acme/widgets")
	app := f.App(42, testKey())
	inst := app.Install("acme", ghfake.Permissions{"checks": "write", "contents": "read"})

	appClient := client(t, f, app.JWT())
	tok, _, err := appClient.Apps.CreateInstallationToken(ctx, inst.ID, nil)
	if err != nil {
		t.Fatalf("CreateInstallationToken: %v", err)
	}
	if got, want := tok.GetExpiresAt().Sub(f.Now()), time.Hour; got != want {
		t.Errorf("token lifetime = %v, want %v", got, want)
	}
	c := client(t, f, tok.GetToken())
	repo, _, err := c.Repositories.Get(ctx, "acme", "widgets")
	if err != nil {
		t.Fatalf("Get repo with installation token: %v", err)
	}
	if got, want := repo.GetDefaultBranch(), "main"; got != want {
		t.Errorf("default branch = %q, want %q", got, want)
	}
	got, _, err := appClient.Apps.FindRepositoryInstallation(ctx, "acme", "widgets")
	if err != nil || got.GetID() != inst.ID {
		t.Errorf("FindRepositoryInstallation = %v, %v; want ID %d", got.GetID(), err, inst.ID)
	}

	f.Advance(time.Hour)
	if _, _, err := c.Repositories.Get(ctx, "acme", "widgets"); status(err) != http.StatusUnauthorized {
		t.Errorf("expired token: err = %v, want 401", err)
	}
}

func TestAppJWTRefusals(t *testing.T) {
	f := ghfake.New(t)
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	f.SetNow(now)
	app := f.App(42, testKey())
	inst := app.Install("acme", ghfake.Permissions{"checks": "write"})
	other := ghfake.NewAppKey()
	sign := func(k any, claims jwt.MapClaims) string {
		s, err := jwt.NewWithClaims(jwt.SigningMethodRS256, claims).SignedString(k)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	tests := []struct {
		name string
		jwt  string
		want int
	}{
		{"valid", ghfake.SignAppJWT(testKey(), 42, now), http.StatusCreated},
		{"wrong key", ghfake.SignAppJWT(other, 42, now), http.StatusUnauthorized},
		{"unknown app", ghfake.SignAppJWT(testKey(), 43, now), http.StatusUnauthorized},
		{"expired", ghfake.SignAppJWT(testKey(), 42, now.Add(-20*time.Minute)), http.StatusUnauthorized},
		{"issued in the future", ghfake.SignAppJWT(testKey(), 42, now.Add(5*time.Minute)), http.StatusUnauthorized},
		{"exp too far", sign(testKey(), jwt.MapClaims{"iss": "42", "iat": now.Add(-time.Minute).Unix(), "exp": now.Add(11 * time.Minute).Unix()}), http.StatusUnauthorized},
		{"exp exactly 10 minutes ahead", sign(testKey(), jwt.MapClaims{"iss": "42", "iat": now.Add(-time.Minute).Unix(), "exp": now.Add(10 * time.Minute).Unix()}), http.StatusCreated},
		{"client ID as issuer", sign(testKey(), jwt.MapClaims{"iss": "Iv1.42", "iat": now.Add(-time.Minute).Unix(), "exp": now.Add(9 * time.Minute).Unix()}), http.StatusCreated},
		{"garbage", "not-a-jwt", http.StatusUnauthorized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, resp, err := client(t, f, tt.jwt).Apps.CreateInstallationToken(ctx, inst.ID, nil)
			got := 0
			if resp != nil {
				got = resp.StatusCode
			}
			if got != tt.want {
				t.Errorf("status = %d (err %v), want %d", got, err, tt.want)
			}
		})
	}
}

func TestInstallationTokenNarrowing(t *testing.T) {
	f := ghfake.New(t)
	f.CreateRepo("acme/widgets")
	f.CreateRepo("acme/gadgets")
	app := f.App(42, testKey())
	inst := app.Install("acme", ghfake.Permissions{"checks": "write", "contents": "read"})
	ac := client(t, f, app.JWT())

	tok, _, err := ac.Apps.CreateInstallationToken(ctx, inst.ID, &github.InstallationTokenOptions{
		Repositories: []string{"widgets"}, Permissions: &github.InstallationPermissions{Checks: github.String("read")},
	})
	if err != nil {
		t.Fatalf("narrowed token: %v", err)
	}
	c := client(t, f, tok.GetToken())
	if _, _, err := c.Repositories.Get(ctx, "acme", "gadgets"); status(err) != http.StatusNotFound {
		t.Errorf("repo outside the narrowed token: err = %v, want 404", err)
	}
	_, _, err = c.Checks.CreateCheckRun(ctx, "acme", "widgets", github.CreateCheckRunOptions{Name: "x", HeadSHA: f.Repo("acme/widgets").Head("main")})
	if status(err) != http.StatusForbidden || !strings.Contains(err.Error(), "Resource not accessible by integration") {
		t.Errorf("check write with checks:read: err = %v, want 403 Resource not accessible by integration", err)
	}
	_, _, err = ac.Apps.CreateInstallationToken(ctx, inst.ID, &github.InstallationTokenOptions{
		Permissions: &github.InstallationPermissions{Issues: github.String("write")},
	})
	if status(err) != http.StatusUnprocessableEntity {
		t.Errorf("asking for a permission the installation lacks: err = %v, want 422", err)
	}
}

func TestActionsTokenPermissions(t *testing.T) {
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	sha := repo.Head("main")
	ro := client(t, f, f.ActionsToken(repo, ghfake.Permissions{"checks": "read", "contents": "read"}))
	_, _, err := ro.Checks.CreateCheckRun(ctx, "acme", "widgets", github.CreateCheckRunOptions{Name: "aep/lint", HeadSHA: sha})
	if status(err) != http.StatusForbidden || !strings.Contains(err.Error(), "Resource not accessible by integration") {
		t.Fatalf("read-only token: err = %v, want 403 Resource not accessible by integration", err)
	}
	rw := client(t, f, f.ActionsToken(repo, ghfake.Permissions{"checks": "write"}))
	run, _, err := rw.Checks.CreateCheckRun(ctx, "acme", "widgets", github.CreateCheckRunOptions{Name: "aep/lint", HeadSHA: sha})
	if err != nil {
		t.Fatalf("write token: %v", err)
	}
	if got, want := run.GetApp().GetID(), int64(ghfake.ActionsAppID); got != want {
		t.Errorf("check run app = %d, want github-actions %d", got, want)
	}
	if _, _, err := ro.Checks.GetCheckRun(ctx, "acme", "widgets", run.GetID()); err != nil {
		t.Errorf("read-only token reading checks: %v", err)
	}
	if _, err := http.Get(f.URL() + "repos/acme/widgets"); err != nil {
		t.Fatal(err)
	}
	if got := f.Requests(); got[len(got)-1].Status != http.StatusUnauthorized {
		t.Errorf("anonymous request status = %d, want 401", got[len(got)-1].Status)
	}
}
