package archtest

import (
	"slices"
	"strings"
	"testing"
)

// cliCore are the packages `aepgate lint` and `status` do their work
// with: reading a run folder, parsing it, judging it. They link the
// standard library and this module only. The binary they run in,
// cmd/aepgate, links none of the App's libraries either
// (TestProductBinaryLinksNoApp), so its start initialises none of them.
var cliCore = []string{module + "/internal/rundir", module + "/protocol/lint", module + "/protocol/status", module + "/protocol/rundoc"}

// TestCLICoreLinksNoLibrary: the lint and status path links nothing
// outside the standard library and this module.
func TestCLICoreLinksNoLibrary(t *testing.T) {
	pkgs := listPackages(t)
	n := 0
	for _, p := range pkgs {
		if slices.Contains(cliCore, p.ImportPath) {
			n++
			for _, v := range libraryLinks(p) {
				t.Error(v)
			}
		}
	}
	if n != len(cliCore) {
		t.Fatalf("go list found %d of the %d core packages: the test would prove nothing", n, len(cliCore))
	}
}

// libraryLinks lists p's dependencies that are neither of the standard
// library (no dot in the first path element) nor of this module.
func libraryLinks(p pkgInfo) []string {
	var out []string
	for _, d := range p.Deps {
		first, _, _ := strings.Cut(d, "/")
		if strings.Contains(first, ".") && d != module && !strings.HasPrefix(d, module+"/") {
			out = append(out, rel(p.ImportPath)+" links "+d+": the lint and status path links the standard library and this module only")
		}
	}
	return out
}

// TestCLICoreLinksNoLibraryCanFail is its negative control: planted
// library dependencies are each caught; the standard library, vendored
// standard packages and this module are not.
func TestCLICoreLinksNoLibraryCanFail(t *testing.T) {
	tests := []struct {
		name string
		deps []string
		want int
	}{
		{"the App's libraries", []string{"github.com/prometheus/client_golang/prometheus", "github.com/prometheus/procfs", "modernc.org/sqlite"}, 3},
		{"a look-alike of the module", []string{module + "x/protocol"}, 1},
		{"only its own", []string{"strings", "vendor/golang.org/x/text/unicode/norm", "internal/bytealg", module + "/protocol/rundoc"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := libraryLinks(pkgInfo{ImportPath: module + "/protocol/lint", Deps: tt.deps}); len(got) != tt.want {
				t.Errorf("got %q, want %d", got, tt.want)
			}
		})
	}
}
