package appcmd

import (
	"fmt"
	"net/netip"
)

// parsePrefixes parses flag's list (--trusted-proxies,
// --github-hook-addresses): CIDR prefixes, or single addresses as /32 or
// /128.
func parsePrefixes(flag string, list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range list {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			a, aerr := netip.ParseAddr(s)
			if aerr != nil {
				return nil, fmt.Errorf("%s %q: not a CIDR range or an IP address (e.g. 10.0.0.0/8 or 192.0.2.7)", flag, s)
			}
			p = netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen())
		}
		out = append(out, p.Masked())
	}
	return out, nil
}
