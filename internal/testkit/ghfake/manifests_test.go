package ghfake_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// newAppCode posts a manifest to the new-App page (for org when given)
// and returns the redirect's code and state.
func newAppCode(t *testing.T, f *ghfake.Fake, org string) (code, state string) {
	t.Helper()
	m, _ := json.Marshal(map[string]any{"name": "My App", "redirect_url": "http://127.0.0.1:9/cb", "hook_attributes": map[string]string{"url": "https://x.example/webhook"}})
	page := f.URL() + "settings/apps/new"
	if org != "" {
		page = f.URL() + "organizations/" + org + "/settings/apps/new"
	}
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.PostForm(page+"?state=s1", url.Values{"manifest": {string(m)}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || loc == nil || loc.Host != "127.0.0.1:9" {
		t.Fatalf("new-App page: %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	return loc.Query().Get("code"), loc.Query().Get("state")
}

func convert(t *testing.T, f *ghfake.Fake, code string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(f.URL()+"app-manifests/"+code+"/conversions", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	json.NewDecoder(resp.Body).Decode(&body)
	return resp.StatusCode, body
}

// TestManifestConversion: the code converts once, within the hour, into
// GitHub's answer (201: the App with client_secret, webhook_secret and
// pem); the App belongs to the organisation or the signed-in user.
func TestManifestConversion(t *testing.T) {
	f := ghfake.New(t)
	f.SignIn("octocat")
	code, state := newAppCode(t, f, "acme")
	if state != "s1" || code == "" {
		t.Fatalf("code %q, state %q", code, state)
	}
	status, body := convert(t, f, code)
	var keys []string
	for k := range body {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range []string{"client_id", "client_secret", "html_url", "id", "name", "node_id", "owner", "pem", "slug", "webhook_secret"} {
		if body[k] == nil || body[k] == "" {
			t.Errorf("answer lacks %s: %v", k, keys)
		}
	}
	if status != http.StatusCreated || body["slug"] != "my-app" || !strings.HasPrefix(body["pem"].(string), "-----BEGIN RSA PRIVATE KEY-----") {
		t.Fatalf("conversion: %d %v", status, body)
	}
	if owner := body["owner"].(map[string]any)["login"]; owner != "acme" {
		t.Errorf("owner %v, want acme", owner)
	}
	if again, _ := convert(t, f, code); again != http.StatusNotFound {
		t.Errorf("second conversion: %d, want 404", again)
	}
	late, _ := newAppCode(t, f, "")
	f.Advance(61 * time.Minute)
	if got, _ := convert(t, f, late); got != http.StatusNotFound {
		t.Errorf("conversion after an hour: %d, want 404", got)
	}
}

// TestNewAppPageNeedsASignedInUser: no user signed in, no App.
func TestNewAppPageNeedsASignedInUser(t *testing.T) {
	f := ghfake.New(t)
	resp, err := http.PostForm(f.URL()+"settings/apps/new", url.Values{"manifest": {`{"name":"x","redirect_url":"http://127.0.0.1:9/"}`}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("status %d, want 401", resp.StatusCode)
	}
}
