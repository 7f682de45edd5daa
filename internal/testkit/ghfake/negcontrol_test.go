package ghfake

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// These negative controls remove one protection at a time and show the
// attack it stops then succeeds, so the protection is known to be live.

func TestNegativeControlPermissions(t *testing.T) {
	tests := []struct {
		enforce bool
		want    int
	}{
		{true, http.StatusForbidden},
		{false, http.StatusCreated},
	}
	for _, tt := range tests {
		f := New(t)
		repo := f.CreateRepo("acme/widgets")
		tok := f.ActionsToken(repo, Permissions{"checks": "read"})
		f.protect.permissions = tt.enforce
		body := `{"name":"forged","head_sha":"` + repo.Head("main") + `"}`
		got := do(t, f, "POST", "repos/acme/widgets/check-runs", tok, body)
		if got != tt.want {
			t.Errorf("enforce=%v: read-only token creating a check run = %d, want %d", tt.enforce, got, tt.want)
		}
	}
}

func TestNegativeControlJWTSignature(t *testing.T) {
	tests := []struct {
		verify bool
		want   int
	}{
		{true, http.StatusUnauthorized},
		{false, http.StatusCreated},
	}
	for _, tt := range tests {
		f := New(t)
		f.CreateRepo("acme/widgets")
		app := f.App(42, NewAppKey())
		inst := app.Install("acme", Permissions{"checks": "write"})
		forged := SignAppJWT(NewAppKey(), 42, time.Now())
		f.protect.signatures = tt.verify
		got := do(t, f, "POST", "app/installations/"+itoa(inst.ID)+"/access_tokens", forged, "")
		if got != tt.want {
			t.Errorf("verify=%v: token for a JWT signed by the wrong key = %d, want %d", tt.verify, got, tt.want)
		}
	}
}

func do(t *testing.T, f *Fake, method, path, tok, body string) int {
	t.Helper()
	req, _ := http.NewRequest(method, f.URL()+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
