package ghfake_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// oauthWorld is an org with two repositories, the App installed on both,
// and alice a collaborator on one.
func oauthWorld(t *testing.T) (*ghfake.Fake, *ghfake.App, *ghfake.Installation) {
	t.Helper()
	f := ghfake.New(t)
	open := f.CreateRepo("acme/open")
	secret := f.CreateRepo("acme/secret")
	secret.SetPrivate(true)
	open.Grant("alice", "write")
	app := f.App(77, testKey())
	inst := app.Install("acme", ghfake.Permissions{"issues": "write"})
	return f, app, inst
}

// authorize follows the authorize page once and returns the code and state
// it redirected with.
func authorize(t *testing.T, f *ghfake.Fake, clientID, redirect, state string) (code, gotState string, status int) {
	t.Helper()
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	q := url.Values{"client_id": {clientID}, "redirect_uri": {redirect}, "state": {state}}
	resp, err := hc.Get(f.URL() + "login/oauth/authorize?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	return loc.Query().Get("code"), loc.Query().Get("state"), resp.StatusCode
}

// exchange posts a token request and returns GitHub's JSON answer.
func exchange(t *testing.T, f *ghfake.Fake, form url.Values) map[string]any {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, f.URL()+"login/oauth/access_token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestOAuthWebFlowListsOnlyReadableRepositories(t *testing.T) {
	f, app, inst := oauthWorld(t)
	f.SignIn("alice")
	const back = "http://board.example/board/callback"
	code, state, status := authorize(t, f, app.ClientID, back, "s1")
	if status != http.StatusFound || code == "" || state != "s1" {
		t.Fatalf("authorize = %d code %q state %q, want 302 with a code and state s1", status, code, state)
	}
	form := url.Values{"client_id": {app.ClientID}, "client_secret": {app.ClientSecret()}, "code": {code}, "redirect_uri": {back}}
	tok, _ := exchange(t, f, form)["access_token"].(string)
	if !strings.HasPrefix(tok, "ghu_") {
		t.Fatalf("access_token = %q, want a ghu_ token", tok)
	}
	c := client(t, f, tok)
	u, _, err := c.Users.Get(ctx, "")
	if err != nil || u.GetLogin() != "alice" {
		t.Fatalf("GET /user = %q, %v; want alice", u.GetLogin(), err)
	}
	insts, _, err := c.Apps.ListUserInstallations(ctx, nil)
	if err != nil || len(insts) != 1 || insts[0].GetID() != inst.ID {
		t.Fatalf("GET /user/installations = %d installations, %v; want the one", len(insts), err)
	}
	repos, _, err := c.Apps.ListUserRepos(ctx, inst.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range repos.Repositories {
		got = append(got, r.GetFullName())
	}
	if diff := cmp.Diff([]string{"acme/open"}, got); diff != "" {
		t.Errorf("repositories (-want +got):\n%s", diff)
	}
	// The code was used once.
	if e := exchange(t, f, form)["error"]; e != "bad_verification_code" {
		t.Errorf("second exchange error = %v, want bad_verification_code", e)
	}
}

func TestOAuthRefusals(t *testing.T) {
	const back = "http://board.example/board/callback"
	tests := []struct {
		name   string
		change func(url.Values)
		want   string
	}{
		{"wrong secret", func(v url.Values) { v.Set("client_secret", "nope") }, "incorrect_client_credentials"},
		{"unknown client", func(v url.Values) { v.Set("client_id", "Iv1.999") }, "incorrect_client_credentials"},
		{"unknown code", func(v url.Values) { v.Set("code", "forged") }, "bad_verification_code"},
		{"other redirect", func(v url.Values) { v.Set("redirect_uri", "http://evil.example/cb") }, "redirect_uri_mismatch"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, app, _ := oauthWorld(t)
			f.SignIn("alice")
			code, _, _ := authorize(t, f, app.ClientID, back, "s")
			form := url.Values{"client_id": {app.ClientID}, "client_secret": {app.ClientSecret()}, "code": {code}, "redirect_uri": {back}}
			tt.change(form)
			got := exchange(t, f, form)
			if got["error"] != tt.want || got["access_token"] != nil {
				t.Errorf("exchange = %v, want error %s and no token", got, tt.want)
			}
		})
	}
}

// TestOAuthCodeExpires: a code is refused ten minutes after it was issued,
// and redeemed just before.
func TestOAuthCodeExpires(t *testing.T) {
	tests := []struct {
		name  string
		after time.Duration
		want  any // the answer's error field
	}{
		{"just in time", 10*time.Minute - time.Second, nil},
		{"expired", 10 * time.Minute, "bad_verification_code"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, app, _ := oauthWorld(t)
			f.SignIn("alice")
			code, _, _ := authorize(t, f, app.ClientID, "http://b.example/cb", "")
			f.SetNow(f.Now().Add(tt.after))
			got := exchange(t, f, url.Values{"client_id": {app.ClientID}, "client_secret": {app.ClientSecret()}, "code": {code}})
			if got["error"] != tt.want || (tt.want == nil) != (got["access_token"] != nil) {
				t.Errorf("exchange %v after the code = %v, want error %v", tt.after, got, tt.want)
			}
		})
	}
}

func TestOAuthUserWithoutAccessSeesNoInstallation(t *testing.T) {
	f, app, inst := oauthWorld(t)
	f.SignIn("mallory")
	code, _, _ := authorize(t, f, app.ClientID, "http://b.example/cb", "")
	tok, _ := exchange(t, f, url.Values{"client_id": {app.ClientID}, "client_secret": {app.ClientSecret()}, "code": {code}})["access_token"].(string)
	c := client(t, f, tok)
	insts, _, err := c.Apps.ListUserInstallations(ctx, nil)
	if err != nil || len(insts) != 0 {
		t.Errorf("installations = %d, %v; want none", len(insts), err)
	}
	if _, _, err := c.Apps.ListUserRepos(ctx, inst.ID, nil); status(err) != http.StatusNotFound {
		t.Errorf("repositories: %v, want 404", err)
	}
	// An installation token is not a user token.
	if _, _, err := client(t, f, inst.Token()).Apps.ListUserInstallations(ctx, nil); status(err) != http.StatusForbidden {
		t.Errorf("installation token: %v, want 403", err)
	}
}

func TestOAuthAuthorizeNeedsSignedInUser(t *testing.T) {
	f, app, _ := oauthWorld(t)
	if _, _, status := authorize(t, f, app.ClientID, "http://b.example/cb", "s"); status != http.StatusUnauthorized {
		t.Errorf("authorize with nobody signed in = %d, want 401", status)
	}
	f.SignIn("alice")
	if _, _, status := authorize(t, f, "Iv1.999", "http://b.example/cb", "s"); status != http.StatusNotFound {
		t.Errorf("authorize unknown client = %d, want 404", status)
	}
}
