package app

import (
	"net/http"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestReadyzWaitsForGitHubAuth: /readyz answers 503 while GitHub refuses
// the App's JWT (here: the App is not registered yet) with the database
// up, and 200 once the App's retry finds its credentials accepted.
func TestReadyzWaitsForGitHubAuth(t *testing.T) {
	f := ghfake.New(t)
	o := testOptions(t, nil, "")
	o.GitHubURL = f.URL()
	a, base := startApp(t, o)
	if got := readyz(t, base); got != http.StatusServiceUnavailable {
		t.Fatalf("/readyz before GitHub accepted the App: %d, want 503", got)
	}
	if _, ok := a.github.Verified(); ok {
		t.Fatal("verified before the App exists on GitHub")
	}
	f.App(testAppID, appKey(t))
	waitFor(t, 10*time.Second, "/readyz 200 after the App's credentials are accepted", func() bool {
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
