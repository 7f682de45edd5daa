package archtest

import (
	"slices"
	"strings"
	"testing"
)

// demoOnly are what only the demo uses: its package and the Markdown
// renderer its report draws check runs with (and the fake GitHub parses
// comments with). The product binary, cmd/aepgate, links none of them, so
// that it starts without initialising them (goldmark alone compiles a dozen
// regular expressions at init) and ships no simulated GitHub; the demo is
// cmd/aepgate-demo.
var demoOnly = []string{module + "/cmd/internal/demo", module + "/internal/testkit/ghfake", "github.com/yuin/goldmark"}

// TestProductBinaryLinksNoDemo keeps what only the demo needs out of
// cmd/aepgate.
func TestProductBinaryLinksNoDemo(t *testing.T) {
	for _, v := range demoLinks(productBinary(t, listPackages(t))) {
		t.Error(v)
	}
}

// productBinary returns cmd/aepgate among pkgs.
func productBinary(t *testing.T, pkgs []pkgInfo) pkgInfo {
	t.Helper()
	i := slices.IndexFunc(pkgs, func(p pkgInfo) bool { return p.ImportPath == module+"/cmd/aepgate" })
	if i < 0 {
		t.Fatal("go list did not list cmd/aepgate")
	}
	return pkgs[i]
}

// demoLinks lists the dependencies of p that only the demo may have.
func demoLinks(p pkgInfo) []string {
	var out []string
	for _, d := range p.Deps {
		for _, b := range demoOnly {
			if d == b || strings.HasPrefix(d, b+"/") {
				out = append(out, rel(p.ImportPath)+" links "+d+", which only the demo (cmd/aepgate-demo) may")
			}
		}
	}
	return out
}

// TestProductBinaryLinksNoDemoCanFail is its negative control: planted
// dependencies are each caught, and the standard library is not.
func TestProductBinaryLinksNoDemoCanFail(t *testing.T) {
	tests := []struct {
		name string
		deps []string
		want int
	}{
		{"through the demo", []string{module + "/cmd/internal/demo", module + "/internal/testkit/ghfake"}, 2},
		{"goldmark's extension", []string{"github.com/yuin/goldmark/extension"}, 1},
		{"only what it needs", []string{"net/http", module + "/cmd/internal/cli", "github.com/yuin/goldmarkdown"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := demoLinks(pkgInfo{ImportPath: module + "/cmd/aepgate", Deps: tt.deps}); len(got) != tt.want {
				t.Errorf("got %q, want %d", got, tt.want)
			}
		})
	}
}
