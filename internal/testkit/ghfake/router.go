package ghfake

import (
	"net/http"
	"strings"
)

// router matches "METHOD /a/{b}/c/{d...}" patterns like net/http's ServeMux
// but resolves overlaps GitHub's API has (issues/comments/{id} beside
// issues/{number}/comments) by preferring, at the first differing segment,
// a literal over a wildcard.
type router struct {
	routes []*routeEntry
}

type routeEntry struct {
	method string
	segs   []string
	serve  func(w http.ResponseWriter, r *http.Request)
}

func (rt *router) add(pattern string, serve func(w http.ResponseWriter, r *http.Request)) {
	method, path, _ := strings.Cut(pattern, " ")
	rt.routes = append(rt.routes, &routeEntry{method: method, segs: strings.Split(strings.Trim(path, "/"), "/"), serve: serve})
}

// match returns the best route for method and path with its wildcard values.
func (rt *router) match(method, path string) (*routeEntry, map[string]string) {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	var best *routeEntry
	var bestVals map[string]string
	for _, e := range rt.routes {
		if e.method != method && !(method == http.MethodHead && e.method == http.MethodGet) {
			continue
		}
		vals, ok := e.bind(parts)
		if ok && (best == nil || e.beats(best)) {
			best, bestVals = e, vals
		}
	}
	return best, bestVals
}

func (e *routeEntry) bind(parts []string) (map[string]string, bool) {
	vals := map[string]string{}
	for i, s := range e.segs {
		if name, ok := strings.CutSuffix(strings.TrimPrefix(s, "{"), "...}"); ok && strings.HasPrefix(s, "{") {
			if i > len(parts) {
				return nil, false
			}
			vals[name] = strings.Join(parts[i:], "/")
			return vals, true
		}
		if i >= len(parts) {
			return nil, false
		}
		if strings.HasPrefix(s, "{") {
			if parts[i] == "" {
				return nil, false
			}
			vals[strings.Trim(s, "{}")] = parts[i]
			continue
		}
		if s != parts[i] {
			return nil, false
		}
	}
	return vals, len(parts) == len(e.segs)
}

// beats reports whether e is more specific than o.
func (e *routeEntry) beats(o *routeEntry) bool {
	for i := 0; i < len(e.segs) && i < len(o.segs); i++ {
		el, ol := !strings.HasPrefix(e.segs[i], "{"), !strings.HasPrefix(o.segs[i], "{")
		if el != ol {
			return el
		}
		ew, ow := strings.HasSuffix(e.segs[i], "...}"), strings.HasSuffix(o.segs[i], "...}")
		if ew != ow {
			return ow
		}
	}
	// Equal so far: a route that needs one more (non-tail) segment is more
	// specific; an extra tail wildcard matching nothing is less.
	switch {
	case len(e.segs) > len(o.segs):
		return !strings.HasSuffix(e.segs[len(o.segs)], "...}")
	case len(e.segs) < len(o.segs):
		return strings.HasSuffix(o.segs[len(e.segs)], "...}")
	}
	return false
}

// ServeHTTP dispatches to the best route, or answers GitHub's 404.
func (rt *router) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	e, vals := rt.match(r.Method, r.URL.Path)
	if e == nil {
		writeRaw(w, http.StatusNotFound, obj{"message": "Not Found", "documentation_url": docsRoot, "status": "404"})
		return
	}
	for k, v := range vals {
		r.SetPathValue(k, v)
	}
	e.serve(w, r)
}
