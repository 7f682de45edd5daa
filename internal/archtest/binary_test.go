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
// cmd/aepgate and cmd/aepgate-app.
func TestProductBinaryLinksNoDemo(t *testing.T) {
	pkgs := listPackages(t)
	for _, v := range append(demoLinks(productBinary(t, pkgs)), demoLinks(appBinary(t, pkgs))...) {
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

// appBinary returns cmd/aepgate-app among pkgs.
func appBinary(t *testing.T, pkgs []pkgInfo) pkgInfo {
	t.Helper()
	i := slices.IndexFunc(pkgs, func(p pkgInfo) bool { return p.ImportPath == module+"/cmd/aepgate-app" })
	if i < 0 {
		t.Fatal("go list did not list cmd/aepgate-app")
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

// appOnly are what only aepgate-app (cmd/aepgate-app) links: the App's
// commands, its packages (app/manifest, the manifest's permission table,
// excepted) and the store, and the libraries they bring (River, pgx, the
// SQLite port, Prometheus's client with procfs and protobuf, gjson), and
// aepgate mcp's server with the MCP SDK and its JSON schema library.
// cmd/aepgate links none of them, so that its start (--version, lint,
// status, the Action) initialises no database, queue, metrics or MCP
// library; its serve, ledger, simulate, app and mcp run aepgate-app.
var appOnly = []string{
	module + "/cmd/internal/appcmd", module + "/app", module + "/internal/store", module + "/cmd/internal/mcpserve",
	"github.com/riverqueue", "github.com/jackc", "modernc.org", "github.com/prometheus",
	"google.golang.org/protobuf", "github.com/tidwall", "github.com/modelcontextprotocol", "github.com/google/jsonschema-go",
}

// appShared are the packages under appOnly's prefixes that cmd/aepgate may
// link: they initialise nothing of the App's libraries.
var appShared = []string{module + "/app/manifest"}

// TestProductBinaryLinksNoApp keeps the App's packages and libraries out
// of cmd/aepgate.
func TestProductBinaryLinksNoApp(t *testing.T) {
	for _, v := range appLinks(productBinary(t, listPackages(t))) {
		t.Error(v)
	}
}

// appLinks lists the dependencies of p that only aepgate-app may have.
func appLinks(p pkgInfo) []string {
	var out []string
	for _, d := range p.Deps {
		if slices.Contains(appShared, d) {
			continue
		}
		for _, b := range appOnly {
			if d == b || strings.HasPrefix(d, b+"/") {
				out = append(out, rel(p.ImportPath)+" links "+d+", which only aepgate-app (cmd/aepgate-app) may: aepgate runs it for the App's commands")
				break
			}
		}
	}
	return out
}

// TestProductBinaryLinksNoAppCanFail is its negative control: each planted
// App package or library is caught; the shared manifest table, look-alike
// names and the standard library are not.
func TestProductBinaryLinksNoAppCanFail(t *testing.T) {
	tests := []struct {
		name string
		deps []string
		want int
	}{
		{"the App's commands and root", []string{module + "/cmd/internal/appcmd", module + "/app", module + "/app/queue", module + "/internal/store"}, 4},
		{"the App's libraries", []string{"github.com/riverqueue/river", "github.com/jackc/pgx/v5", "modernc.org/sqlite", "github.com/prometheus/client_golang/prometheus", "google.golang.org/protobuf/proto", "github.com/tidwall/gjson"}, 6},
		{"the MCP server and SDK", []string{module + "/cmd/internal/mcpserve", "github.com/modelcontextprotocol/go-sdk/mcp", "github.com/google/jsonschema-go/jsonschema"}, 3},
		{"the MCP port", []string{module + "/cmd/internal/mcpport"}, 0},
		{"what it may link", []string{module + "/app/manifest", module + "/appendix", module + "/internal/storex", "net/http", "github.com/spf13/cobra"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := appLinks(pkgInfo{ImportPath: module + "/cmd/aepgate", Deps: tt.deps}); len(got) != tt.want {
				t.Errorf("got %q, want %d", got, tt.want)
			}
		})
	}
}
