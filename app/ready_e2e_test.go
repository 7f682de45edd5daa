package app_test

import (
	"crypto/rand"
	"crypto/rsa"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestReadyzWaitsForGitHubAuth: /readyz answers 503 while GitHub refuses
// the App's JWT (here: the App is not registered yet) with the database
// up, and 200 once the App's retry finds its credentials accepted.
func TestReadyzWaitsForGitHubAuth(t *testing.T) {
	f := ghfake.New(t)
	o := appkit.Options(t, nil, "")
	o.GitHubURL = f.URL()
	a, base := appkit.Start(t, o)
	if got := readyz(t, base); got != http.StatusServiceUnavailable {
		t.Fatalf("/readyz before GitHub accepted the App: %d, want 503", got)
	}
	if _, ok := a.Credentials().Verified(); ok {
		t.Fatal("verified before the App exists on GitHub")
	}
	f.App(appkit.AppID, appkit.Key(t))
	appkit.WaitFor(t, 10*time.Second, "/readyz 200 after the App's credentials are accepted", func() bool {
		return readyz(t, base) == http.StatusOK
	})
}

func readyz(t *testing.T, base string) int {
	t.Helper()
	resp, err := http.Get(base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestReadyzRechecksGitHubAuth: a key deleted in the App's settings while
// the App runs turns /readyz to 503 with GitHub's refusal as the reason
// at the next re-check, and a key GitHub accepts again turns it back to
// 200. Negative control: without the re-check /readyz stays 200 on a key
// GitHub refuses.
func TestReadyzRechecksGitHubAuth(t *testing.T) {
	other, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name      string
		noRecheck bool
	}{
		{"re-checked", false},
		{"negative control: checked only at start", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := ghfake.New(t)
			fa := f.App(appkit.AppID, appkit.Key(t))
			o := appkit.Options(t, nil, "")
			o.GitHubURL = f.URL()
			o.AuthRecheck = 50 * time.Millisecond
			if tt.noRecheck {
				o.AuthRecheck = -1
			}
			_, base := appkit.Start(t, o)
			appkit.WaitFor(t, 10*time.Second, "/readyz 200 with the App's key accepted", func() bool {
				return readyz(t, base) == http.StatusOK
			})
			fa.SetKey(other)
			if tt.noRecheck {
				time.Sleep(time.Second) // twenty re-checks' worth
				if got, body := readyzBody(t, base); got != http.StatusOK {
					t.Fatalf("/readyz without the re-check: %d %q, want 200 (the control shows nothing)", got, body)
				}
				return
			}
			appkit.WaitFor(t, 10*time.Second, "/readyz 503 after the App's key was revoked", func() bool {
				return readyz(t, base) == http.StatusServiceUnavailable
			})
			_, body := readyzBody(t, base)
			for _, want := range []string{"GitHub refuses the App's credentials", "401", "private key"} {
				if !strings.Contains(body, want) {
					t.Errorf("/readyz body %q lacks %q", body, want)
				}
			}
			fa.SetKey(appkit.Key(t))
			appkit.WaitFor(t, 10*time.Second, "/readyz 200 after GitHub accepts the key again", func() bool {
				return readyz(t, base) == http.StatusOK
			})
		})
	}
}

func readyzBody(t *testing.T, base string) (int, string) {
	t.Helper()
	resp, err := http.Get(base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}
