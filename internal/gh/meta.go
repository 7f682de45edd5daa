package gh

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"time"
)

// HookRanges reads GitHub's published webhook source ranges, the "hooks"
// field of GET /meta, without authentication (the endpoint needs none).
// An entry that is not a CIDR prefix or an address is an error: the list
// is GitHub's own and a wrong one must not be half-used. GHES answers
// with no "hooks" field: that is an empty list.
//
// https://docs.github.com/rest/meta/meta#get-github-meta-information
func (c *Clients) HookRanges(ctx context.Context) ([]netip.Prefix, error) {
	client, err := NewClient(c.baseURL, &http.Client{Transport: c.auth.base, Timeout: 30 * time.Second})
	if err != nil {
		return nil, err
	}
	meta, _, err := client.Meta.Get(ctx)
	if err != nil {
		return nil, fmt.Errorf("read GitHub's hook ranges: %w", err)
	}
	return parseRanges(meta.Hooks)
}

// parseRanges parses CIDR prefixes, and single addresses as /32 or /128.
func parseRanges(entries []string) ([]netip.Prefix, error) {
	out := make([]netip.Prefix, 0, len(entries))
	for _, e := range entries {
		p, err := netip.ParsePrefix(e)
		if err != nil {
			a, aerr := netip.ParseAddr(e)
			if aerr != nil {
				return nil, fmt.Errorf("read GitHub's hook ranges: %q is not a CIDR prefix", e)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		out = append(out, p.Masked())
	}
	return out, nil
}
