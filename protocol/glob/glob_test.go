package glob

import (
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
