package archtest

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/aepgate/aepgate"

// pkgInfo is the part of `go list -json` output the rules need.
type pkgInfo struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

func listPackages(t *testing.T) []pkgInfo {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps=false", "-json", module+"/...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkgInfo
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p pkgInfo
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("decode go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) == 0 {
		t.Fatal("go list found no packages")
	}
	return pkgs
}

func rel(path string) string { return strings.TrimPrefix(strings.TrimPrefix(path, module), "/") }

func under(path, prefix string) bool { return path == prefix || strings.HasPrefix(path, prefix+"/") }

// pure reports whether a package must stay free of I/O and GitHub: protocol,
// review and checks (whose publisher lives in internal/gh).
func pure(p string) bool {
	return under(p, "protocol") || under(p, "review") || under(p, "checks")
}

// forbiddenDeps are never reachable, even transitively, from a pure package.
var forbiddenDeps = []string{
	"net/http",
	"log",
	"log/slog",
	"github.com/google/go-github",
	"github.com/shurcooL/githubv4",
	"github.com/sethvargo/go-githubactions",
}

// processPackages may run processes and touch files (the README's import
// rules: no os, except protocol/negcontrol, which runs processes).
var processPackages = map[string]bool{"protocol/negcontrol": true}

// forbiddenDirect are not imported directly by a pure package (fmt imports
// os, so this rule can only look at direct imports).
var forbiddenDirect = []string{"os", "os/exec", "io/ioutil", "syscall", "net"}

func TestPurePackages(t *testing.T) {
	for _, p := range listPackages(t) {
		r := rel(p.ImportPath)
		if !pure(r) {
			continue
		}
		for _, d := range p.Deps {
			for _, f := range forbiddenDeps {
				if d == f || strings.HasPrefix(d, f+"/") {
					t.Errorf("%s depends on %s; pure packages take values in and give values out (README, import rules)", r, d)
				}
			}
		}
		if processPackages[r] {
			continue
		}
		for _, d := range p.Imports {
			for _, f := range forbiddenDirect {
				if d == f {
					t.Errorf("%s imports %s; only protocol/negcontrol may (README, import rules)", r, d)
				}
			}
		}
	}
}

// layers lists, for each layer, the layers it must never import:
// protocol ← review ← checks ← internal/gh ← app, action ← cmd.
var layers = map[string][]string{
	"protocol": {"review", "checks", "internal/gh", "app", "action", "cmd"},
	"review":   {"checks", "internal/gh", "app", "action", "cmd"},
	// checks renders the domain's results, review's audit decisions
	// included, so it may import review (never the reverse).
	"checks":      {"internal/gh", "app", "action", "cmd"},
	"internal/gh": {"app", "action", "cmd"},
	"app":         {"action", "cmd"},
	"action":      {"app", "cmd"},
}

func TestImportDirection(t *testing.T) {
	for _, p := range listPackages(t) {
		r := rel(p.ImportPath)
		for layer, banned := range layers {
			if !under(r, layer) || (layer == "internal/gh" && under(r, "internal/ghfake")) {
				continue
			}
			for _, d := range p.Deps {
				if !strings.HasPrefix(d, module+"/") {
					continue
				}
				for _, b := range banned {
					if under(rel(d), b) {
						t.Errorf("%s depends on %s; the README's import rules forbid %s → %s", r, rel(d), layer, b)
					}
				}
			}
		}
	}
}

// testOnly are the packages of test infrastructure: no production package
// may depend on them.
var testOnly = []string{"internal/ghfake", "internal/browser"}

// TestFakeIsTestOnly keeps the test infrastructure out of every production
// package.
func TestFakeIsTestOnly(t *testing.T) {
	for _, p := range listPackages(t) {
		r := rel(p.ImportPath)
		for _, infra := range testOnly {
			if under(r, infra) {
				continue
			}
			for _, d := range p.Deps {
				if under(rel(d), infra) && strings.HasPrefix(d, module+"/") {
					t.Errorf("%s depends on %s, which is test infrastructure", r, infra)
				}
			}
		}
	}
}

// TestRulesCanFail is the negative control of the rules above: a listing that
// breaks each rule must be caught.
func TestRulesCanFail(t *testing.T) {
	bad := pkgInfo{ImportPath: module + "/protocol/x", Imports: []string{"os"}, Deps: []string{"net/http", module + "/internal/gh"}}
	if !pure(rel(bad.ImportPath)) {
		t.Fatal("protocol/x not seen as pure")
	}
	hits := 0
	for _, d := range bad.Deps {
		for _, f := range forbiddenDeps {
			if d == f {
				hits++
			}
		}
		for _, b := range layers["protocol"] {
			if strings.HasPrefix(d, module+"/") && under(rel(d), b) {
				hits++
			}
		}
	}
	for _, d := range bad.Imports {
		for _, f := range forbiddenDirect {
			if d == f {
				hits++
			}
		}
	}
	if hits != 3 {
		t.Fatalf("rules caught %d of 3 planted violations", hits)
	}
}

// githubClients are the client libraries that speak the GitHub API.
var githubClients = []string{"github.com/google/go-github", "github.com/shurcooL/githubv4"}

// githubSpeakers are the packages allowed to import them (the README's
// import rules: internal/gh is the one place that speaks the GitHub API;
// the fake answers it).
var githubSpeakers = []string{"internal/gh", "internal/ghfake"}

// speaksGitHub returns the GitHub client imports of p that the README's
// import rules forbid: every direct import of go-github or githubv4 outside internal/gh
// and internal/ghfake.
func speaksGitHub(p pkgInfo) []string {
	r := rel(p.ImportPath)
	for _, s := range githubSpeakers {
		if under(r, s) {
			return nil
		}
	}
	var out []string
	for _, d := range p.Imports {
		for _, c := range githubClients {
			if d == c || strings.HasPrefix(d, c+"/") {
				out = append(out, d)
			}
		}
	}
	return out
}

func TestOnlyInternalGHSpeaksGitHub(t *testing.T) {
	for _, p := range listPackages(t) {
		for _, d := range speaksGitHub(p) {
			t.Errorf("%s imports %s; only internal/gh speaks to GitHub (README, import rules): give it a method there and a small interface here", rel(p.ImportPath), d)
		}
	}
}

// TestOnlyInternalGHSpeaksGitHubCanFail plants app/ importing go-github and
// githubv4 and expects both caught, and internal/gh's own import allowed.
func TestOnlyInternalGHSpeaksGitHubCanFail(t *testing.T) {
	planted := pkgInfo{ImportPath: module + "/app", Imports: []string{"context", "github.com/google/go-github/v62/github", "github.com/shurcooL/githubv4"}}
	if got := speaksGitHub(planted); len(got) != 2 {
		t.Errorf("app importing both clients: caught %v, want both", got)
	}
	allowed := pkgInfo{ImportPath: module + "/internal/gh", Imports: planted.Imports}
	if got := speaksGitHub(allowed); got != nil {
		t.Errorf("internal/gh refused its own imports: %v", got)
	}
}
