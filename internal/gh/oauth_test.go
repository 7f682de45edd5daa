package gh_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

func TestWebURL(t *testing.T) {
	tests := []struct{ api, want string }{
		{"", "https://github.com"},
		{gh.DefaultBaseURL, "https://github.com"},
		{"https://api.github.com", "https://github.com"},
		{"https://ghe.example/api/v3/", "https://ghe.example"},
		{"https://ghe.example/api/v3", "https://ghe.example"},
		{"https://ghe.example/", "https://ghe.example"},
		{"http://127.0.0.1:8080/", "http://127.0.0.1:8080"},
	}
	for _, tt := range tests {
		got, err := gh.WebURL(tt.api)
		if err != nil || got != tt.want {
			t.Errorf("WebURL(%q) = %q, %v; want %q", tt.api, got, err, tt.want)
		}
	}
	if _, err := gh.WebURL("not a url"); err == nil {
		t.Error("WebURL(not a url): want an error")
	}
}

// signIn follows the authorize URL as a browser would and returns the code
// GitHub redirected with.
func signIn(t *testing.T, authorize string) string {
	t.Helper()
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.Get(authorize)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || resp.StatusCode != http.StatusFound {
		t.Fatalf("authorize = %s, Location %q", resp.Status, resp.Header.Get("Location"))
	}
	return loc.Query().Get("code")
}

// TestOAuthUserAccess signs alice in and reads her access: 105 readable
// repositories (two pages) of one installation, none of another account's
// installation she has no role on, and not the private repository beside
// hers.
func TestOAuthUserAccess(t *testing.T) {
	ctx := context.Background()
	f := ghfake.New(t)
	var want []string
	for i := range 105 {
		r := f.CreateRepo(fmt.Sprintf("acme/r%03d", i))
		r.Grant("alice", "read")
		want = append(want, r.FullName())
	}
	f.CreateRepo("acme/secret").SetPrivate(true)
	f.CreateRepo("other/x")
	app := f.App(901, ghfake.NewAppKey())
	inst := app.Install("acme", ghfake.Permissions{"issues": "read"})
	app.Install("other", ghfake.Permissions{"issues": "read"})
	f.SignIn("alice")

	o, err := gh.NewOAuth(f.URL(), app.ClientID, app.ClientSecret(), nil)
	if err != nil {
		t.Fatal(err)
	}
	const back = "http://board.example/board/callback"
	code := signIn(t, o.AuthorizeURL(back, "st"))
	tok, err := o.Exchange(ctx, code, back)
	if err != nil {
		t.Fatal(err)
	}
	got, err := o.UserAccess(ctx, tok)
	if err != nil {
		t.Fatal(err)
	}
	wantAccess := gh.UserAccess{Login: "alice", Installations: []gh.UserInstallation{{ID: inst.ID, Account: "acme", Repos: want}}}
	if diff := cmp.Diff(wantAccess, got); diff != "" {
		t.Errorf("UserAccess (-want +got):\n%s", diff)
	}
	// A code works once; an error names GitHub's reason, not the secret.
	_, err = o.Exchange(ctx, code, back)
	if err == nil || !strings.Contains(err.Error(), "bad_verification_code") || strings.Contains(err.Error(), app.ClientSecret()) {
		t.Errorf("second Exchange: %v, want bad_verification_code without the secret", err)
	}
}

func TestOAuthWrongSecretRefused(t *testing.T) {
	f := ghfake.New(t)
	app := f.App(902, ghfake.NewAppKey())
	f.SignIn("alice")
	o, err := gh.NewOAuth(f.URL(), app.ClientID, "wrong", nil)
	if err != nil {
		t.Fatal(err)
	}
	code := signIn(t, o.AuthorizeURL("http://b.example/cb", "s"))
	if _, err := o.Exchange(context.Background(), code, "http://b.example/cb"); err == nil || !strings.Contains(err.Error(), "incorrect_client_credentials") {
		t.Errorf("Exchange with a wrong secret: %v, want incorrect_client_credentials", err)
	}
}

// TestOAuthRevoke: a revoked token reads nothing more; revoking it again,
// or with a wrong secret, is an error.
func TestOAuthRevoke(t *testing.T) {
	ctx := context.Background()
	f := ghfake.New(t)
	f.CreateRepo("acme/r").Grant("alice", "read")
	app := f.App(902, ghfake.NewAppKey())
	app.Install("acme", ghfake.Permissions{"issues": "read"})
	f.SignIn("alice")
	o, err := gh.NewOAuth(f.URL(), app.ClientID, app.ClientSecret(), nil)
	if err != nil {
		t.Fatal(err)
	}
	const back = "http://board.example/board/callback"
	tok, err := o.Exchange(ctx, signIn(t, o.AuthorizeURL(back, "st")), back)
	if err != nil {
		t.Fatal(err)
	}
	wrong, err := gh.NewOAuth(f.URL(), app.ClientID, "not-the-secret", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := wrong.Revoke(ctx, tok); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("Revoke with a wrong secret: %v, want 401", err)
	}
	if _, err := o.UserAccess(ctx, tok); err != nil {
		t.Fatalf("the token before revoking: %v", err)
	}
	if err := o.Revoke(ctx, tok); err != nil {
		t.Fatalf("Revoke: %v", err)
	}
	if _, err := o.UserAccess(ctx, tok); err == nil {
		t.Error("the revoked token still reads the user's access")
	}
	if err := o.Revoke(ctx, tok); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("revoking twice: %v, want 404", err)
	}
}

// TestOAuthRevokePath: Revoke asks the REST root NewClient resolves, so a
// bare GHES host (as --github-url may give it) is asked under /api/v3/,
// like every other call, with the client ID and secret as Basic
// authentication.
func TestOAuthRevokePath(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, secret, _ := r.BasicAuth()
		got = append(got, r.Method+" "+r.URL.Path+" "+id+":"+secret)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	for _, root := range []string{srv.URL + "/", srv.URL + "/api/v3/"} {
		o, err := gh.NewOAuth(root, "Iv1.abc", "s3cret", nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := o.Revoke(context.Background(), "tok"); err != nil {
			t.Errorf("Revoke on %s: %v", root, err)
		}
	}
	want := []string{"DELETE /api/v3/applications/Iv1.abc/token Iv1.abc:s3cret", "DELETE /api/v3/applications/Iv1.abc/token Iv1.abc:s3cret"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}
