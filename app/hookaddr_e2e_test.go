package app_test

import (
	"net/netip"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestGitHubHookAddressesOnGHES: on a GitHub whose GET /meta lists no hook
// ranges (GHES), the addresses of --github-hook-addresses are GitHub's to
// the edge and the listener; without them none is (the per-address byte
// cap then applies to GHES's deliveries: app/webhook's
// TestWebhookConfiguredHookAddress).
func TestGitHubHookAddressesOnGHES(t *testing.T) {
	ghes := netip.MustParseAddr("127.0.0.1")
	for _, tt := range []struct {
		name       string
		configured []netip.Prefix
		want       bool
	}{
		{"configured", []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}, true},
		{"none configured", nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := ghfake.New(t)
			f.SetHookRanges(nil)
			f.App(appkit.AppID, appkit.Key(t))
			o := appkit.Options(t, nil, "")
			o.GitHubURL, o.GitHubHookAddresses = f.URL(), tt.configured
			a, _ := appkit.Start(t, o)
			if got := a.Hooks().Known() && a.Hooks().Contains(ghes); got != tt.want {
				t.Errorf("GHES's address %s is GitHub's: %v, want %v", ghes, got, tt.want)
			}
		})
	}
}
