package codeowners

import "testing"

// TestMatch holds GitHub's documented examples (about-code-owners, "Example
// of a CODEOWNERS file") and gitignore's rules as GitHub applies them.
func TestMatch(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"*", "README.md", true},
		{"*", "a/b/c.go", true},
		{"*.js", "app.js", true},
		{"*.js", "web/src/app.js", true},
		{"*.js", "app.jsx", false},
		{"*.go", "docs/x.go/readme", true}, // a directory named x.go: its files
		{"/build/logs/", "build/logs/a.log", true},
		{"/build/logs/", "build/logs/deep/a.log", true},
		{"/build/logs/", "x/build/logs/a.log", false},
		{"/build/logs/", "build/logs", false}, // a file, not the directory
		{"docs/*", "docs/getting-started.md", true},
		{"docs/*", "docs/build-app/troubleshooting.md", false},
		{"docs/*", "x/docs/a.md", false},
		{"apps/", "apps/a.js", true},
		{"apps/", "web/apps/deep/a.js", true},
		{"apps/", "apps", false},
		{"/docs/", "docs/a/b.md", true},
		{"/docs/", "web/docs/a.md", false},
		{"/scripts/", "scripts/x.sh", true},
		{"**/logs", "build/logs/a", true},
		{"**/logs", "deeply/nested/logs/a", true},
		{"**/logs", "logs", true},
		{"/apps/github", "apps/github/x.go", true},
		{"/apps/github", "apps/github", true},
		{"/apps/github", "apps/githubx", false},
		{"/apps/", "apps/github/x.go", true},
		{"docs", "docs", true},
		{"docs", "a/docs/b.md", true},
		{"docs/**", "docs/a/b.md", true},
		{"a/**/b", "a/b", true},
		{"a/**/b", "a/x/y/b", true},
		{"a/**/b", "a/x/y/c", false},
		{"a?c", "abc", true},
		{"a?c", "a/c", false},
		{"a**b", "axyb", true},
		{`a\*b`, "a*b", true},
		{`a\*b`, "axb", false},
		{"/", "a", false},
		{"/*", "README.md", true},
		{"/*", "docs/a.md", false},
		{"Docs/", "docs/a.md", false}, // paths are case-sensitive
	}
	for _, tt := range tests {
		if got := Match(tt.pattern, tt.name); got != tt.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.pattern, tt.name, got, tt.want)
		}
	}
}

// FuzzMatch checks that Match never panics and that an anchored literal
// pattern matches its own path.
func FuzzMatch(f *testing.F) {
	f.Add("docs/*", "docs/a.md")
	f.Add("**/a/**/b", "x/a/y/b")
	f.Add(`\`, `\`)
	f.Fuzz(func(t *testing.T, pattern, name string) {
		Match(pattern, name)
		if name != "" && !containsAny(name, `*?[\`) && name[0] != '/' && !hasDotSlash(name) && name[len(name)-1] != '/' && !Match("/"+name, name) {
			t.Fatalf("Match(/%q, %q) is false", name, name)
		}
	})
}

func containsAny(s, chars string) bool {
	for i := 0; i < len(s); i++ {
		for j := 0; j < len(chars); j++ {
			if s[i] == chars[j] {
				return true
			}
		}
	}
	return false
}

// hasDotSlash: a name starting "./" is not a path GitHub gives (the
// matcher reads it as the path without "./").
func hasDotSlash(name string) bool { return len(name) >= 2 && name[:2] == "./" }
