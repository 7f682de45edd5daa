package ghfake

import (
	"net/http"
	"testing"
)

func TestRouterSpecificity(t *testing.T) {
	rt := &router{}
	for _, p := range []string{
		"GET /repos/{owner}/{repo}/issues/{issue_number}/comments",
		"GET /repos/{owner}/{repo}/issues/comments/{comment_id}",
		"GET /repos/{owner}/{repo}/branches",
		"GET /repos/{owner}/{repo}/branches/{branch...}",
		"GET /repos/{owner}/{repo}/contents/{path...}",
		"GET /repos/{owner}/{repo}/commits/{ref...}",
		"GET /repos/{owner}/{repo}/commits/{ref}/check-runs",
		"POST /repos/{owner}/{repo}/issues",
	} {
		rt.add(p, func(http.ResponseWriter, *http.Request) {})
	}
	pattern := func(e *routeEntry) string {
		if e == nil {
			return ""
		}
		return e.method + " /" + join(e.segs)
	}
	tests := []struct {
		method, path, want string
		vals               map[string]string
	}{
		{"GET", "/repos/a/b/issues/comments/comments", "GET /repos/{owner}/{repo}/issues/comments/{comment_id}", map[string]string{"comment_id": "comments"}},
		{"GET", "/repos/a/b/issues/7/comments", "GET /repos/{owner}/{repo}/issues/{issue_number}/comments", map[string]string{"issue_number": "7"}},
		{"GET", "/repos/a/b/branches", "GET /repos/{owner}/{repo}/branches", nil},
		{"GET", "/repos/a/b/branches/feature/x", "GET /repos/{owner}/{repo}/branches/{branch...}", map[string]string{"branch": "feature/x"}},
		{"GET", "/repos/a/b/contents/", "GET /repos/{owner}/{repo}/contents/{path...}", map[string]string{"path": ""}},
		{"GET", "/repos/a/b/commits/abc/check-runs", "GET /repos/{owner}/{repo}/commits/{ref}/check-runs", map[string]string{"ref": "abc"}},
		{"GET", "/repos/a/b/commits/feature/x", "GET /repos/{owner}/{repo}/commits/{ref...}", map[string]string{"ref": "feature/x"}},
		{"HEAD", "/repos/a/b/branches", "GET /repos/{owner}/{repo}/branches", nil},
		{"DELETE", "/repos/a/b/issues", "", nil},
		{"GET", "/nope", "", nil},
	}
	for _, tt := range tests {
		e, vals := rt.match(tt.method, tt.path)
		if got := pattern(e); got != tt.want {
			t.Errorf("%s %s → %q, want %q", tt.method, tt.path, got, tt.want)
		}
		for k, v := range tt.vals {
			if vals[k] != v {
				t.Errorf("%s %s: %s = %q, want %q", tt.method, tt.path, k, vals[k], v)
			}
		}
	}
}

func join(segs []string) string {
	out := ""
	for i, s := range segs {
		if i > 0 {
			out += "/"
		}
		out += s
	}
	return out
}
