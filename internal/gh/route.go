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
	for i, p := range parts {
		switch {
		case i > 0 && parts[0] == "repos" && i == 1:
			parts[i] = "{owner}"
		case i > 0 && parts[0] == "repos" && i == 2:
			parts[i] = "{repo}"
		case i > 0 && parts[i-1] == "commits":
			parts[i] = "{ref}"
		case isDigits(p):
			parts[i] = "{n}"
		case len(p) == 40 && isHex(p):
			parts[i] = "{sha}"
		case i > 0 && (parts[i-1] == "contents" || parts[i-1] == "ref" || parts[i-1] == "refs"):
			return "/" + strings.Join(append(parts[:i], "{path}"), "/")
		}
	}
	return "/" + strings.Join(parts, "/")
}

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

func isHex(s string) bool {
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}
