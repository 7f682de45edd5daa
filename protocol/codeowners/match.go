package codeowners

import (
	"strings"

	"github.com/aepgate/aepgate/protocol/glob"
)

// Owners says who owns the slash-separated, repository-relative path name:
// the owners of the last rule that matches it (matched true; they may be
// none), or matched false when no rule does.
func (f *File) Owners(name string) (owners []string, matched bool) {
	for i := len(f.Rules) - 1; i >= 0; i-- {
		if Match(f.Rules[i].Pattern, name) {
			return f.Rules[i].Owners, true
		}
	}
	return nil, false
}

// Match reports whether a CODEOWNERS pattern matches the file name, by
// gitignore's rules as GitHub applies them:
//   - a pattern with a "/" at its start or in its middle is anchored at
//     the repository root; one without matches at any depth ("*.js",
//     "apps/");
//   - a trailing "/" matches directories only, so their files;
//   - a pattern that matches a directory matches every file under it
//     ("/apps/github", "docs/"), except a pattern ending "/*", which
//     matches only the files directly in that directory ("docs/*");
//   - "*" matches any run of characters but "/", "?" one character but
//     "/", a segment "**" any number of whole segments ("**/logs",
//     "docs/**", "a/**/b"); "\x" is x itself.
func Match(pattern, name string) bool {
	p := strings.TrimPrefix(pattern, "/")
	dirOnly := strings.HasSuffix(p, "/")
	p = strings.TrimSuffix(p, "/")
	if p == "" {
		return false
	}
	anchored := strings.HasPrefix(pattern, "/") || strings.Contains(p, "/")
	if !anchored {
		p = "**/" + p
	}
	pat := strings.Split(p, "/")
	segs := strings.Split(strings.TrimPrefix(name, "/"), "/")
	if !dirOnly && matchSegments(pat, segs) {
		return true
	}
	if anchored && strings.HasSuffix(pattern, "/*") {
		return false // "docs/*": the directory's own files only
	}
	for n := len(segs) - 1; n >= 1; n-- {
		if matchSegments(pat, segs[:n]) {
			return true // a directory the file is in
		}
	}
	return false
}

// matchSegments matches pattern segments against name segments ("**" any
// number of whole segments; glob.Segments) with CODEOWNERS' rule for one
// segment.
func matchSegments(pat, name []string) bool { return glob.Segments(pat, name, matchSegment) }

// matchSegment matches one segment: "*" any run (a "**" inside a segment
// is two of them), "?" one character, "\x" x itself. Backtracking is
// bounded by remembering the last star, as in path.Match.
func matchSegment(pat, s string) bool {
	pi, si := 0, 0
	star, mark := -1, 0
	for si < len(s) {
		switch {
		case pi < len(pat) && pat[pi] == '*':
			star, mark = pi, si
			pi++
			continue
		case pi < len(pat) && pat[pi] == '?':
			pi, si = pi+1, si+1
			continue
		case pi < len(pat) && literalAt(pat, pi) == s[si]:
			pi, si = pi+literalLen(pat, pi), si+1
			continue
		case star >= 0:
			mark++
			pi, si = star+1, mark
			continue
		}
		return false
	}
	for pi < len(pat) && pat[pi] == '*' {
		pi++
	}
	return pi == len(pat)
}

// literalAt is the byte pattern position i stands for ("\x" is x).
func literalAt(pat string, i int) byte {
	if pat[i] == '\\' && i+1 < len(pat) {
		return pat[i+1]
	}
	return pat[i]
}

// literalLen is how many pattern bytes the literal at i takes.
func literalLen(pat string, i int) int {
	if pat[i] == '\\' && i+1 < len(pat) {
		return 2
	}
	return 1
}
