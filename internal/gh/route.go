package gh

import (
	"strings"
)

// Route reduces a request path to a template for metrics: the owner and
// repository after /repos/ become {owner}/{repo}, numbers become {n} and
// 40-hex SHAs become {sha}. A GHES /api/v3 prefix is dropped and /api/graphql is /graphql.
func Route(path string) string {
	path = strings.TrimPrefix(path, "/api/v3")
	if path == "/api/graphql" {
		return "/graphql"
	}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	for i := range parts {
		seg, rest := routeSegment(parts, i)
		if rest {
			return "/" + strings.Join(append(parts[:i], seg), "/")
		}
		parts[i] = seg
	}
	return "/" + strings.Join(parts, "/")
}

// routeSegment is the template of parts[i], the segments before it already
// templated; rest reports that it stands for the rest of the path.
func routeSegment(parts []string, i int) (seg string, rest bool) {
	p := parts[i]
	prev := ""
	if i > 0 {
		prev = parts[i-1]
	}
	switch {
	case i > 0 && parts[0] == "repos" && repoSlots[i] != "":
		return repoSlots[i], false
	case prev == "commits":
		return "{ref}", false
	case isDigits(p):
		return "{n}", false
	case len(p) == 40 && isHex(p):
		return "{sha}", false
	case pathParents[prev]:
		return "{path}", true
	}
	return p, false
}

// repoSlots are the templates of the segments after /repos/.
var repoSlots = map[int]string{1: "{owner}", 2: "{repo}"}

// pathParents are the segments after which the rest of a path is a file
// path or a ref name.
var pathParents = map[string]bool{"contents": true, "ref": true, "refs": true}

// isDigits reports whether s is one or more decimal digits.
func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// isHex reports whether s is lowercase hexadecimal digits only.
func isHex(s string) bool {
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}
