package ghfake

import "net/http"

// defaultHookRanges are the fake's GET /meta "hooks": the loopback
// addresses its deliveries come from, then GitHub's published IPv4 and
// IPv6 hook ranges as api.github.com/meta lists them.
var defaultHookRanges = []string{"127.0.0.1/32", "::1/128",
	"192.30.252.0/22", "185.199.108.0/22", "140.82.112.0/20", "143.55.64.0/20", "2a0a:a440::/29", "2606:50c0::/32"}

// SetHookRanges sets the "hooks" field of GET /meta (nil: the field is
// left out, as GHES answers).
func (f *Fake) SetHookRanges(ranges []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.meta.hooks, f.meta.set = ranges, true
}

// metaState is what GET /meta answers; its zero value answers
// defaultHookRanges.
type metaState struct {
	hooks []string
	set   bool
}

// metaRoutes serves GET /meta: no authentication, GitHub's shape (the
// address lists GitHub publishes, each a list of CIDR strings).
//
// https://docs.github.com/rest/meta/meta#get-github-meta-information
func (f *Fake) metaRoutes() {
	f.handle("GET /meta", access{scope: scopePublic}, func(c *call) (int, any) {
		hooks := defaultHookRanges
		if c.f.meta.set {
			hooks = c.f.meta.hooks
		}
		out := obj{"verifiable_password_authentication": false, "web": []string{"192.30.252.0/22"},
			"api": []string{"192.30.252.0/22"}, "git": []string{"192.30.252.0/22"}}
		if hooks != nil {
			out["hooks"] = hooks
		}
		return http.StatusOK, out
	})
}
