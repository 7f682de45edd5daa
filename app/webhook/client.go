package webhook

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// HookRanges reports whether an address is one GitHub sends webhooks from
// (GitHub's published "hooks" ranges, GET /meta). The edge uses it only to
// reserve a share of its byte budget and a larger number of unverified
// bodies for those addresses: their deliveries are verified like any other.
type HookRanges interface {
	// Contains reports whether addr is one of GitHub's hook addresses.
	Contains(addr netip.Addr) bool
	// Known reports whether any range is known: until then (and on GHES,
	// which lists none) nothing is reserved.
	Known() bool
}

// client is who sent a request, as far as the edge's limits go: its
// address (the connection's, or behind a trusted proxy the one the proxy
// saw) and whether that address is one of GitHub's hook addresses.
type client struct {
	addr string
	hook bool
}

// client resolves r's sender.
func (h *Handler) client(r *http.Request) client {
	ip := clientIP(r, h.admit.proxies)
	c := client{addr: ip.String()}
	if !ip.IsValid() {
		c.addr = r.RemoteAddr
	}
	if h.admit.hooks != nil && ip.IsValid() {
		c.hook = h.admit.hooks.Contains(ip)
	}
	return c
}

// clientIP is the address r came from: the connection's peer, or, when
// the peer is a trusted proxy, the rightmost X-Forwarded-For entry that is
// not itself a trusted proxy. Entries left of that one are the sender's
// word and are never read; an entry that is not an IP address ends the
// walk at the hop that added it (the last trusted proxy), as does a
// header made of trusted proxies only.
func clientIP(r *http.Request, trusted []netip.Prefix) netip.Addr {
	peer := peerIP(r.RemoteAddr)
	if !isTrusted(peer, trusted) {
		return peer
	}
	hops := forwardedFor(r.Header.Values("X-Forwarded-For"))
	for i := len(hops) - 1; i >= 0; i-- {
		ip, err := netip.ParseAddr(hops[i])
		if err != nil {
			return peer
		}
		ip = ip.Unmap()
		if !isTrusted(ip, trusted) {
			return ip
		}
		peer = ip
	}
	return peer
}

// forwardedFor splits X-Forwarded-For values into their hops, in order.
func forwardedFor(values []string) []string {
	var hops []string
	for _, v := range values {
		for hop := range strings.SplitSeq(v, ",") {
			hops = append(hops, strings.TrimSpace(hop))
		}
	}
	return hops
}

// peerIP is the IP address of a RemoteAddr ("host:port"); the zero Addr
// when it has none.
func peerIP(remote string) netip.Addr {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}
	}
	return ip.Unmap()
}

func isTrusted(ip netip.Addr, trusted []netip.Prefix) bool {
	if !ip.IsValid() {
		return false
	}
	for _, p := range trusted {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// clientAddr is the IP address of r's connection (RemoteAddr without the
// port), for logs.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
