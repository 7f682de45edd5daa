package glob

import (
	"slices"
	"strings"
	"testing"
)

func TestSegments(t *testing.T) {
	eq := func(p, n string) bool { return p == "*" || p == n }
	tests := []struct {
		pat, name string
		want      bool
	}{
		{"a/b", "a/b", true},
		{"a/*", "a/b", true},
		{"a/*", "a/b/c", false},
		{"a/**", "a/b/c", true},
		{"a/**", "a", true},
		{"**/c", "a/b/c", true},
		{"**/c", "c", true},
		{"a/**/c", "a/c", true},
		{"a/**/c", "a/x/y/c", true},
		{"a/**/c", "a/x/y/d", false},
		{"a", "a/b", false},
		{"**/**/**/**/**/x", strings.Repeat("a/", 200) + "y", false},
	}
	for _, tt := range tests {
		if got := Segments(strings.Split(tt.pat, "/"), strings.Split(tt.name, "/"), eq); got != tt.want {
			t.Errorf("Segments(%q, %q) = %v, want %v", tt.pat, tt.name, got, tt.want)
		}
	}
}

// TestMatch holds the examples of GitHub's CODEOWNERS documentation
// (about-code-owners, "Example of a CODEOWNERS file") and gitignore's rules
// as GitHub applies them: the one dialect of every path pattern.
func TestMatch(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		// "*": every file.
		{"*", "README.md", true},
		{"*", "a/b/c.go", true},
		// "*.js": at any depth.
		{"*.js", "app.js", true},
		{"*.js", "web/src/app.js", true},
		{"*.js", "app.jsx", false},
		{"*.go", "docs/x.go/readme", true}, // a directory named x.go: its files
		// "/build/logs/": anchored, a directory's files at any depth.
		{"/build/logs/", "build/logs/a.log", true},
		{"/build/logs/", "build/logs/deep/a.log", true},
		{"/build/logs/", "x/build/logs/a.log", false},
		{"/build/logs/", "build/logs", false}, // a file, not the directory
		// "docs/*": the files directly in docs, not deeper.
		{"docs/*", "docs/getting-started.md", true},
		{"docs/*", "docs/build-app/troubleshooting.md", false},
		{"docs/*", "x/docs/a.md", false},
		// "apps/": a directory named apps at any depth.
		{"apps/", "apps/a.js", true},
		{"apps/", "web/apps/deep/a.js", true},
		{"apps/", "apps", false},
		// "/docs/": only the root's docs.
		{"/docs/", "docs/a/b.md", true},
		{"/docs/", "web/docs/a.md", false},
		{"/scripts/", "scripts/x.sh", true},
		// "**/logs": a logs directory anywhere, the root's included.
		{"**/logs", "build/logs/a", true},
		{"**/logs", "deeply/nested/logs/a", true},
		{"**/logs", "logs", true},
		// "/apps/github": the directory and everything in it.
		{"/apps/github", "apps/github/x.go", true},
		{"/apps/github", "apps/github", true},
		{"/apps/github", "apps/githubx", false},
		{"/apps/", "apps/github/x.go", true},
		// A pattern without a slash at any depth; "**" spans folders.
		{"docs", "docs", true},
		{"docs", "a/docs/b.md", true},
		{"docs/**", "docs/a/b.md", true},
		{"docs/contract/**", "docs/contract", true},
		{"docs/contract/**", "docs/contracts/a.md", false},
		{"**/*.proto", "a.proto", true},
		{"**/*.proto", "api/v1/a.proto", true},
		{"a/**/b", "a/b", true},
		{"a/**/b", "a/x/y/b", true},
		{"a/**/b", "a/x/y/c", false},
		{"docs/*/guide.md", "docs/run-1/guide.md", true},
		{"docs/*/guide.md", "docs/a/b/guide.md", false},
		// Within a segment: "*", "?", "[...]", "\x"; none crosses "/".
		{"a?c", "abc", true},
		{"a?c", "a/c", false},
		{"a**b", "axyb", true},
		{"v[12]/*.go", "v2/a.go", true},
		{"v[12]/*.go", "v3/a.go", false},
		{`a\*b`, "a*b", true},
		{`a\*b`, "axb", false},
		{"src/*.go", "src/a/b.go", false},
		// The root, "./", case.
		{"/", "a", false},
		{"", "a", false},
		{"/*", "README.md", true},
		{"/*", "docs/a.md", false},
		{"./docs/*", "docs/x", true},
		{"./Makefile", "sub/Makefile", false},
		{"Docs/", "docs/a.md", false}, // paths are case-sensitive
		{"docs/[", "docs/[", false},   // malformed: matches nothing
	}
	for _, tt := range tests {
		if got := Match(tt.pattern, tt.name); got != tt.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.pattern, tt.name, got, tt.want)
		}
	}
}

// TestMatchDir: a folder matches as itself, never as a folder's file.
func TestMatchDir(t *testing.T) {
	tests := []struct {
		pattern, dir string
		want         bool
	}{
		{"docs/*", "docs/run-1", true},
		{"docs/*", "docs/run-1/annexes", false},
		{"docs/*/", "docs/run-1/", true},
		{"docs/**", "docs/a/b", true},
		{"docs/run-1", "docs/run-1", true},
		{"docs/run-1", "docs/run-1/sub", false},
		{"run-*", "docs/run-7", true},
		{"/run-*", "docs/run-7", false},
	}
	for _, tt := range tests {
		if got := MatchDir(tt.pattern, tt.dir); got != tt.want {
			t.Errorf("MatchDir(%q, %q) = %v, want %v", tt.pattern, tt.dir, got, tt.want)
		}
	}
}

// TestValid: what a config refuses as a pattern.
func TestValid(t *testing.T) {
	for p, ok := range map[string]bool{"docs/**": true, "/a/": true, "*.proto": true, "v[12]": true,
		"docs/[": false, `a\`: false, "": false, "/": false, "a//b": false} {
		if err := Valid(p); (err == nil) != ok {
			t.Errorf("Valid(%q) = %v, want ok %v", p, err, ok)
		}
	}
}

// FuzzMatch: patterns come from repositories (configs, CODEOWNERS, worker
// reports). Match never panics, and a valid anchored literal pattern
// matches its own path and every file under it.
func FuzzMatch(f *testing.F) {
	f.Add("docs/*", "docs/a.md")
	f.Add("**/a/**/b", "x/a/y/b")
	f.Add(`\`, `\`)
	f.Add("[", "[")
	f.Fuzz(func(t *testing.T, pattern, name string) {
		Match(pattern, name)
		MatchDir(pattern, name)
		Valid(pattern)
		if strings.ContainsAny(name, `*?[]\`) || Valid(name) != nil || slices.ContainsFunc(strings.Split(name, "/"), func(s string) bool { return s == "" || s == "." }) {
			return // not a literal path of clean segments
		}
		if !Match("/"+name, name) || !Match("/"+name, name+"/x") {
			t.Fatalf("Match(/%q) misses %q or its files", name, name)
		}
	})
}
