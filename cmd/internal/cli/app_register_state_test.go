package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// attackerCode registers the attacker's own App on fake and returns the
// one-time code GitHub gave for it, unconverted.
func attackerCode(t *testing.T, fake *ghfake.Fake) string {
	t.Helper()
	fake.SignIn("mallory")
	m, _ := json.Marshal(map[string]any{"name": "mallory-app", "redirect_url": "https://mallory.example/cb", "hook_attributes": map[string]string{"url": "https://mallory.example/webhook"}})
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.PostForm(fake.URL()+"settings/apps/new", url.Values{"manifest": {string(m)}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || loc.Query().Get("code") == "" {
		t.Fatalf("new-App page: %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	return loc.Query().Get("code")
}

// TestAppRegisterRefusesACodeWithoutItsState: a page that sends the
// victim's browser to the local callback with the attacker's code (login
// CSRF: the victim's serve would then run the attacker's App) is refused
// when the state is not the one sent, and nothing is written. The
// negative control runs the same attack with the state rule removed: the
// attacker's App is written.
func TestAppRegisterRefusesACodeWithoutItsState(t *testing.T) {
	for _, tc := range []struct {
		name      string
		rules     []callbackRule
		wantFiles bool
	}{
		{"state checked", callbackRules, false},
		{"negative control: no state rule", []callbackRule{hasCode, firstCallback}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := ghfake.New(t)
			code := attackerCode(t, fake)
			dir := t.TempDir()
			files, err := newSecretFiles(dir)
			if err != nil {
				t.Fatal(err)
			}
			f := registerFlags{manifestFlags: manifestFlags{url: "https://aepgate.example.com", name: "aepgate", events: app.Events}, githubURL: fake.URL()}
			r, err := newRegistrar(f, "http://127.0.0.1:1", files)
			if err != nil {
				t.Fatal(err)
			}
			r.rules = tc.rules
			srv := httptest.NewServer(r.handler())
			defer srv.Close()
			resp, err := http.Get(srv.URL + "/callback?" + url.Values{"code": {code}, "state": {"guessed"}}.Encode())
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			_, statErr := os.Stat(filepath.Join(dir, keyFileName))
			if got := statErr == nil; got != tc.wantFiles {
				t.Fatalf("callback answered %d; key written %v, want %v", resp.StatusCode, got, tc.wantFiles)
			}
			if !tc.wantFiles && resp.StatusCode != http.StatusBadRequest {
				t.Errorf("refused callback answered %d, want 400", resp.StatusCode)
			}
		})
	}
}

// TestAppRegisterConvertsOneCallbackOnly: once the page registered its
// App, a second callback with the right state (a replay, or a second code
// from GitHub) is refused with 410 and converts nothing. The negative
// control runs it without firstCallback: the second code is converted
// too (here GitHub, the fake, refuses it: the code was used).
func TestAppRegisterConvertsOneCallbackOnly(t *testing.T) {
	for _, tc := range []struct {
		name        string
		rules       []callbackRule
		wantSecond  int
		wantConvert int
	}{
		{"first callback only", callbackRules, http.StatusGone, 1},
		{"negative control: no firstCallback", []callbackRule{stateMatches, hasCode}, http.StatusBadGateway, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := ghfake.New(t)
			files, err := newSecretFiles(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			f := registerFlags{manifestFlags: manifestFlags{url: "https://aepgate.example.com", name: "aepgate", events: app.Events}, githubURL: fake.URL()}
			r, err := newRegistrar(f, "http://127.0.0.1:1", files)
			if err != nil {
				t.Fatal(err)
			}
			r.rules = tc.rules
			srv := httptest.NewServer(r.handler())
			defer srv.Close()
			code := attackerCode(t, fake)
			var status []int
			for range 2 {
				resp, err := http.Get(srv.URL + "/callback?" + url.Values{"code": {code}, "state": {r.state}}.Encode())
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				status = append(status, resp.StatusCode)
			}
			converts := 0
			for _, req := range fake.Requests() {
				if strings.HasPrefix(req.Path, "/app-manifests/") {
					converts++
				}
			}
			if status[0] != http.StatusOK || status[1] != tc.wantSecond || converts != tc.wantConvert {
				t.Errorf("callbacks answered %v, %d conversions; want [200 %d], %d", status, converts, tc.wantSecond, tc.wantConvert)
			}
		})
	}
}

// TestAppRegisterListensOnLoopbackOnly: the page, which hands out the
// App's secrets, is never served on an address others reach; the negative
// control listens with the rule off and gets the wildcard address.
func TestAppRegisterListensOnLoopbackOnly(t *testing.T) {
	for _, tc := range []struct {
		name    string
		rule    func(string) error
		refused bool
	}{
		{"loopback only", loopbackOnly, true},
		{"negative control: any host", func(string) error { return nil }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ln, err := loopbackListener("0.0.0.0:0", tc.rule)
			if ln != nil {
				ln.Close()
			}
			if refused := err != nil; refused != tc.refused {
				t.Errorf("0.0.0.0:0: error %v; want refused %v", err, tc.refused)
			}
		})
	}
	if code, _, errOut := runCLI(t, "app", "register", "--url", "https://a.example", "--dir", t.TempDir(), "--listen", "0.0.0.0:0"); code != exitUsage || !strings.Contains(errOut, "loopback") {
		t.Errorf("--listen 0.0.0.0:0: exit %d, stderr %q", code, errOut)
	}
}
