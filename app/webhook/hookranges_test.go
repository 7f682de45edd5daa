package webhook

import (
	"context"
	"errors"
	"net/netip"
	"testing"
	"time"
)

// TestHookCache: nothing is known before a first read; a read sets the
// ranges; a failed read reports false and keeps the last list.
func TestHookCache(t *testing.T) {
	github := netip.MustParseAddr("140.82.115.1")
	reads := []struct {
		prefixes []netip.Prefix
		err      error
	}{
		{[]netip.Prefix{mustPrefix("140.82.112.0/20")}, nil},
		{nil, errors.New("GET /meta: 502")},
	}
	i := 0
	h := &HookCache{Read: func(context.Context) ([]netip.Prefix, error) {
		r := reads[i]
		i++
		return r.prefixes, r.err
	}}
	if h.Known() || h.Contains(github) {
		t.Fatal("ranges known before a first read")
	}
	for _, step := range []struct {
		name      string
		ok, known bool
	}{
		{"first read", true, true},
		{"failed read keeps the list", false, true},
	} {
		if got := h.Refresh(context.Background(), time.Second); got != step.ok {
			t.Errorf("%s: Refresh = %v, want %v", step.name, got, step.ok)
		}
		if h.Known() != step.known || h.Contains(github) != step.known || h.Contains(netip.MustParseAddr("10.0.0.1")) {
			t.Errorf("%s: known %v, contains GitHub %v; want %v", step.name, h.Known(), h.Contains(github), step.known)
		}
	}
}
