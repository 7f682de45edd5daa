package gh

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

func testKey(t *testing.T) *rsa.PrivateKey {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestJWTClaims(t *testing.T) {
	key := testKey(t)
	a := NewAppAuth(42, key, "", nil)
	now := time.Unix(1_700_000_000, 0)
	a.now = func() time.Time { return now }
	s, err := a.JWT()
	if err != nil {
		t.Fatal(err)
	}
	claims := jwt.RegisteredClaims{}
	_, err = jwt.ParseWithClaims(s, &claims, func(*jwt.Token) (any, error) { return &key.PublicKey, nil },
		jwt.WithValidMethods([]string{"RS256"}), jwt.WithTimeFunc(func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := claims.Issuer, "42"; got != want {
		t.Errorf("iss = %q, want %q", got, want)
	}
	if got, want := claims.IssuedAt.Time, now.Add(-60*time.Second); !got.Equal(want) {
		t.Errorf("iat = %v, want %v", got, want)
	}
	if got, want := claims.ExpiresAt.Time, now.Add(9*time.Minute); !got.Equal(want) {
		t.Errorf("exp = %v, want %v", got, want)
	}
}

// tokenServer issues installation tokens that expire after an hour and
// counts how many it issued.
func tokenServer(t *testing.T, key *rsa.PrivateKey, expires func() time.Time) (*httptest.Server, *atomic.Int32) {
	var issued atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		if _, err := jwt.Parse(raw, func(*jwt.Token) (any, error) { return &key.PublicKey, nil }); err != nil {
			http.Error(w, `{"message":"bad jwt"}`, http.StatusUnauthorized)
			return
		}
		time.Sleep(5 * time.Millisecond)
		n := issued.Add(1)
		json.NewEncoder(w).Encode(map[string]any{"token": fmt.Sprintf("ghs_stateless.%d.not-forty-chars", n), "expires_at": expires().Format(time.RFC3339)})
	}))
	t.Cleanup(srv.Close)
	return srv, &issued
}

func TestTokenCachedAndRefreshedOnce(t *testing.T) {
	key := testKey(t)
	now := time.Now()
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	srv, issued := tokenServer(t, key, func() time.Time { return clock().Add(time.Hour) })
	a := NewAppAuth(1, key, srv.URL+"/", nil)
	a.now = clock
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := a.Token(context.Background(), 7); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if got := issued.Load(); got != 1 {
		t.Fatalf("20 concurrent callers made %d token requests, want 1", got)
	}
	mu.Lock()
	now = now.Add(54 * time.Minute) // 6 minutes left: still cached
	mu.Unlock()
	tok, _ := a.Token(context.Background(), 7)
	if got := issued.Load(); got != 1 {
		t.Fatalf("token with 6 min left was refreshed (%d requests)", got)
	}
	mu.Lock()
	now = now.Add(2 * time.Minute) // 4 minutes left: refresh
	mu.Unlock()
	tok2, _ := a.Token(context.Background(), 7)
	if got := issued.Load(); got != 2 || tok2 == tok {
		t.Fatalf("token with 4 min left not refreshed (%d requests)", got)
	}
	if _, err := a.Token(context.Background(), 8); err != nil || issued.Load() != 3 {
		t.Fatalf("second installation shares a token: %v", err)
	}
}

func TestTokenErrorNamesInstallation(t *testing.T) {
	srv, _ := tokenServer(t, testKey(t), time.Now)
	a := NewAppAuth(1, testKey(t), srv.URL+"/", nil) // wrong key: JWT refused
	_, err := a.Token(context.Background(), 9)
	if err == nil || !strings.Contains(err.Error(), "installation 9 token") {
		t.Fatalf("err = %v", err)
	}
}

// TestJWTReused: one JWT serves requests for jwtReuse, so it always has
// minutes of its nine left; after that, or when the clock moves back, a new
// one is signed.
func TestJWTReused(t *testing.T) {
	a := NewAppAuth(42, testKey(t), "", nil)
	now := time.Unix(1_700_000_000, 0)
	a.now = func() time.Time { return now }
	first, err := a.JWT()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		at   time.Duration
		same bool
	}{
		{"a second later", time.Second, true},
		{"just inside the reuse window", jwtReuse - time.Second, true},
		{"at the end of the window", jwtReuse, false},
		{"clock moved back", -time.Minute, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a.jwt, a.jwtAt = first, time.Unix(1_700_000_000, 0)
			now = time.Unix(1_700_000_000, 0).Add(tt.at)
			got, err := a.JWT()
			if err != nil {
				t.Fatal(err)
			}
			if (got == first) != tt.same {
				t.Errorf("reused = %v, want %v", got == first, tt.same)
			}
		})
	}
}
