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
