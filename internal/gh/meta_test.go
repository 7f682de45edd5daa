package gh_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"net/netip"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestHookRanges reads GET /meta's hooks from the fake GitHub: its default
// list, a list that was set, none (GHES) and one with a bad entry.
func TestHookRanges(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name    string
		set     bool
		ranges  []string
		want    []netip.Prefix
		wantErr bool
	}{
		{"default", false, nil, []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("::1/128"),
			netip.MustParsePrefix("192.30.252.0/22"), netip.MustParsePrefix("185.199.108.0/22"), netip.MustParsePrefix("140.82.112.0/20"),
			netip.MustParsePrefix("143.55.64.0/20"), netip.MustParsePrefix("2a0a:a440::/29"), netip.MustParsePrefix("2606:50c0::/32")}, false},
		{"set, with a bare address", true, []string{"140.82.112.0/20", "192.0.2.7"},
			[]netip.Prefix{netip.MustParsePrefix("140.82.112.0/20"), netip.MustParsePrefix("192.0.2.7/32")}, false},
		{"no hooks field (GHES)", true, nil, []netip.Prefix{}, false},
		{"bad entry", true, []string{"140.82.112.0/20", "not-a-range"}, nil, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := ghfake.New(t)
			if tt.set {
				f.SetHookRanges(tt.ranges)
			}
			// GET /meta needs no authentication: the App's key is never used.
			c := gh.NewClients(gh.NewAppAuth(1, key, f.URL(), nil), f.URL())
			got, err := c.HookRanges(context.Background())
			if (err != nil) != tt.wantErr {
				t.Fatalf("HookRanges error %v, want error %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b netip.Prefix) bool { return a == b })); diff != "" {
				t.Errorf("ranges (-want +got):\n%s", diff)
			}
		})
	}
}
