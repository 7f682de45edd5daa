package ready

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
)

// TestGitHubAtStart: credentials GitHub refuses at start leave the App
// unverified, and the background retry verifies it once GitHub accepts
// them; credentials accepted at once are verified before AtStart returns.
func TestGitHubAtStart(t *testing.T) {
	for _, tt := range []struct {
		name    string
		refused int32 // answers refused before GitHub accepts
		atOnce  bool
	}{
		{"accepted", 0, true},
		{"refused, then accepted", 2, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			g := &GitHub{Log: slog.New(slog.DiscardHandler), Identity: func(context.Context) (gh.AppInfo, error) {
				if calls.Add(1) <= tt.refused {
					return gh.AppInfo{}, fmt.Errorf("GET /app: %w", gh.ErrCredentials)
				}
				return gh.AppInfo{Slug: "aepgate"}, nil
			}}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			g.AtStart(ctx)
			if _, ok := g.Verified(); ok != tt.atOnce {
				t.Fatalf("verified after AtStart: %v, want %v", ok, tt.atOnce)
			}
			deadline := time.Now().Add(20 * time.Second)
			for {
				info, ok := g.Verified()
				if ok {
					if info.Slug != "aepgate" || calls.Load() != tt.refused+1 {
						t.Errorf("verified as %q after %d calls, want aepgate after %d", info.Slug, calls.Load(), tt.refused+1)
					}
					return
				}
				if time.Now().After(deadline) {
					t.Fatal("not verified within 20 s of GitHub accepting the credentials")
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}

// TestGitHubVerifyRefused: a refused Verify returns GitHub's error and
// leaves the App unverified.
func TestGitHubVerifyRefused(t *testing.T) {
	g := &GitHub{Identity: func(context.Context) (gh.AppInfo, error) { return gh.AppInfo{}, gh.ErrCredentials }}
	if _, err := g.Verify(context.Background()); !errors.Is(err, gh.ErrCredentials) {
		t.Errorf("Verify error %v, want gh.ErrCredentials", err)
	}
	if _, ok := g.Verified(); ok {
		t.Error("verified after a refusal")
	}
}

// TestGitHubRecheck: after GitHub accepted the credentials, a later check
// GitHub refuses makes them unverified with the refusal kept; a failure
// that is not a refusal (GitHub unreachable) keeps the last answer; and a
// later acceptance verifies them again.
func TestGitHubRecheck(t *testing.T) {
	outage := errors.New("GET /app: connection refused")
	refused := fmt.Errorf("GET /app: 401: %w", gh.ErrCredentials)
	for _, tt := range []struct {
		name        string
		answer      error
		wantOK      bool
		wantRefusal error
	}{
		{"refused", refused, false, refused},
		{"unreachable", outage, true, nil},
		{"accepted again", nil, true, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var answer atomic.Pointer[error]
			g := &GitHub{Log: slog.New(slog.DiscardHandler), Recheck: 10 * time.Millisecond,
				Identity: func(context.Context) (gh.AppInfo, error) {
					if p := answer.Load(); p != nil && *p != nil {
						return gh.AppInfo{}, *p
					}
					return gh.AppInfo{Slug: "aepgate"}, nil
				}}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			g.AtStart(ctx)
			if _, ok := g.Verified(); !ok {
				t.Fatal("not verified at start")
			}
			if tt.answer == nil {
				answer.Store(&refused)
				waitVerified(t, g, false)
			}
			answer.Store(&tt.answer)
			if tt.wantOK {
				waitVerified(t, g, true)
				time.Sleep(50 * time.Millisecond) // several re-checks
			} else {
				waitVerified(t, g, false)
			}
			if _, ok := g.Verified(); ok != tt.wantOK {
				t.Errorf("verified %v, want %v", ok, tt.wantOK)
			}
			if got := g.Refusal(); got != tt.wantRefusal {
				t.Errorf("refusal %v, want %v", got, tt.wantRefusal)
			}
		})
	}
}

func waitVerified(t *testing.T, g *GitHub, want bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, ok := g.Verified(); ok == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("verified not %v within 20 s", want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
