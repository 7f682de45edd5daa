package archtest

import (
	"encoding/json"
	"fmt"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/aepgate/aepgate"

// pkgInfo is the part of `go list -json` output the rules need.
type pkgInfo struct {
	ImportPath string
	Dir        string
	GoFiles    []string
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

// purePackages must stay free of I/O and GitHub: protocol, review, checks
// (whose publisher lives in internal/gh) and app/verdict, the App's
// decision (package app reads and writes for it).
var purePackages = []string{"protocol", "review", "checks", "app/verdict"}

// pure reports whether a package is one of purePackages or under one.
func pure(p string) bool { return pureIn(p, purePackages) }

func pureIn(p string, roots []string) bool {
	return slices.ContainsFunc(roots, func(root string) bool { return under(p, root) })
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
		for _, v := range purityViolations(p, purePackages) {
			t.Error(v)
		}
	}
}

// purityViolations lists what p, if it is under one of roots, must not
// reach: an I/O or GitHub package (forbiddenDeps, forbiddenDirect) or
// anything under the module's internal/ (the adapters: a pure package
// takes their values from protocol, e.g. protocol/ledger, never from the
// adapter that stores them).
func purityViolations(p pkgInfo, roots []string) []string {
	r := rel(p.ImportPath)
	if !pureIn(r, roots) {
		return nil
	}
	var out []string
	for _, d := range p.Deps {
		for _, f := range forbiddenDeps {
			if d == f || strings.HasPrefix(d, f+"/") {
				out = append(out, fmt.Sprintf("%s depends on %s; pure packages take values in and give values out (README, import rules)", r, d))
			}
		}
		if strings.HasPrefix(d, module+"/") && under(rel(d), "internal") {
			out = append(out, fmt.Sprintf("%s depends on %s; a pure package imports nothing under internal/: move the values it needs into protocol (README, import rules)", r, rel(d)))
		}
	}
	if processPackages[r] {
		return out
	}
	for _, d := range p.Imports {
		if slices.Contains(forbiddenDirect, d) {
			out = append(out, fmt.Sprintf("%s imports %s; only protocol/negcontrol may (README, import rules)", r, d))
		}
	}
	return out
}

// TestPureRuleCanFail: a planted app/verdict that takes its row types from
// internal/store (and so links PostgreSQL and SQLite) is caught, and
// so is a planted protocol package importing os; with app/verdict removed
// from the pure packages (the negative control) the verdict's leak passes.
func TestPureRuleCanFail(t *testing.T) {
	leak := pkgInfo{ImportPath: module + "/app/verdict", Imports: []string{module + "/internal/store"}, Deps: []string{module + "/internal/store", "github.com/jackc/pgx/v5"}}
	if got := purityViolations(leak, purePackages); len(got) != 1 {
		t.Errorf("planted app/verdict → internal/store: %d violations, want 1: %q", len(got), got)
	}
	osUser := pkgInfo{ImportPath: module + "/protocol/x", Imports: []string{"os"}}
	if got := purityViolations(osUser, purePackages); len(got) != 1 {
		t.Errorf("planted protocol/x → os: %d violations, want 1: %q", len(got), got)
	}
	without := slices.DeleteFunc(slices.Clone(purePackages), func(r string) bool { return r == "app/verdict" })
	if got := purityViolations(leak, without); len(got) != 0 {
		t.Errorf("with app/verdict not pure: %d violations, want 0: %q", len(got), got)
	}
}

// layers lists, for each layer, the layers it must never import. The
// folder tree is the order: protocol ← review ← checks ← internal (the
// adapters: internal/gh, internal/store, …) ← app, action ← cmd (the
// binaries and their composition roots, cmd/internal/cli and
// cmd/internal/demo). cmd/internal/cli, the commands of the product
// binary, never imports the demo. app/webhook, the App's HTTP edge, is a
// leaf under app: it imports nothing of the module, so it speaks no GitHub
// and knows nothing of the App beyond the interfaces it declares. Test
// infrastructure (internal/testkit) is kept out of production code by
// TestFakeIsTestOnly.
var layers = map[string][]string{
	"protocol": {"review", "checks", "internal", "app", "action", "cmd"},
	"review":   {"checks", "internal", "app", "action", "cmd"},
	// checks renders the domain's results, review's audit decisions
	// included, so it may import review (never the reverse).
	"checks":      {"internal", "app", "action", "cmd"},
	"internal":    {"app", "action", "cmd"},
	"app":         {"action", "cmd"},
	"app/webhook": {"protocol", "review", "checks", "internal", "app", "action", "cmd"},
	// app/verdict only decides: it reads nothing from GitHub and writes
	// nothing (package app does both for it).
	"app/verdict":      {"internal/gh", "app/writer", "app/webhook", "action", "cmd"},
	"action":           {"app", "cmd"},
	"cmd/internal/cli": {"cmd/aepgate", "cmd/aepgate-app", "cmd/aepgate-demo", "cmd/internal/demo", "cmd/internal/appcmd"},
}

func TestImportDirection(t *testing.T) {
	for _, p := range listPackages(t) {
		for _, v := range layerViolations(p, layers) {
			t.Error(v)
		}
	}
}

// appKits are test kits that drive the App from outside, as its tests do
// (internal/testkit/appkit, the App's end-to-end test world): they sit
// above app, not in the internal layer, and they are test-only (testOnly),
// so no production package reaches them.
var appKits = map[string]bool{"internal/testkit/appkit": true, "internal/testkit/appkit/toyfeature": true}

// layerViolations lists the module packages p depends on that the layers
// p belongs to forbid.
func layerViolations(p pkgInfo, layers map[string][]string) []string {
	var out []string
	r := rel(p.ImportPath)
	for layer, banned := range layers {
		if !under(r, layer) || (layer == "app" && under(r, "app/webhook")) || (layer == "internal" && appKits[r]) {
			continue
		}
		for _, d := range p.Deps {
			if !strings.HasPrefix(d, module+"/") {
				continue
			}
			for _, b := range banned {
				if under(rel(d), b) {
					out = append(out, fmt.Sprintf("%s depends on %s; the README's import rules forbid %s → %s", r, rel(d), layer, b))
				}
			}
		}
	}
	return out
}

// TestShelvesCanFail: the folder tree is the enforced order. A planted
// adapter (internal/store) that imports the App, and a planted composition
// root (cmd/internal/cli) that imports the demo, are each caught; with
// their layer removed from the rules (the negative control), neither is.
func TestShelvesCanFail(t *testing.T) {
	for _, tt := range []struct {
		layer string
		pkg   pkgInfo
	}{
		{"internal", pkgInfo{ImportPath: module + "/internal/store", Deps: []string{module + "/app"}}},
		{"cmd/internal/cli", pkgInfo{ImportPath: module + "/cmd/internal/cli", Deps: []string{module + "/cmd/internal/demo"}}},
	} {
		if got := layerViolations(tt.pkg, layers); len(got) != 1 {
			t.Errorf("planted %s: %d violations, want 1: %q", rel(tt.pkg.ImportPath), len(got), got)
		}
		without := maps.Clone(layers)
		delete(without, tt.layer)
		if got := layerViolations(tt.pkg, without); len(got) != 0 {
			t.Errorf("planted %s with layer %s removed: %d violations, want 0: %q", rel(tt.pkg.ImportPath), tt.layer, len(got), got)
		}
	}
}

// TestAppKitLayerCanFail: the App's test world may import the App, which
// no other package under internal may; with its allowance removed (the
// negative control) the same listing is caught.
func TestAppKitLayerCanFail(t *testing.T) {
	kit := pkgInfo{ImportPath: module + "/internal/testkit/appkit", Deps: []string{module + "/app", module + "/internal/testkit/ghfake"}}
	if got := layerViolations(kit, layers); len(got) != 0 {
		t.Errorf("appkit → app: %d violations, want 0: %q", len(got), got)
	}
	other := pkgInfo{ImportPath: module + "/internal/testkit/ghfake", Deps: []string{module + "/app"}}
	if got := layerViolations(other, layers); len(got) != 1 {
		t.Errorf("planted ghfake → app: %d violations, want 1: %q", len(got), got)
	}
	saved := appKits
	appKits = nil
	defer func() { appKits = saved }()
	if got := layerViolations(kit, layers); len(got) != 1 {
		t.Errorf("appkit → app without its allowance: %d violations, want 1: %q", len(got), got)
	}
}

// TestEdgeLayerCanFail is the webhook edge's layer rule's negative
// control: an app/webhook that reaches package app and internal/gh is
// caught twice, and not at all once its layer is removed from the rules.
func TestEdgeLayerCanFail(t *testing.T) {
	planted := pkgInfo{ImportPath: module + "/app/webhook", Deps: []string{"net/http", module + "/app", module + "/internal/gh"}}
	if got := layerViolations(planted, layers); len(got) != 2 {
		t.Errorf("planted app/webhook → app, internal/gh: %d violations, want 2: %q", len(got), got)
	}
	without := maps.Clone(layers)
	delete(without, "app/webhook")
	if got := layerViolations(planted, without); len(got) != 0 {
		t.Errorf("with the edge's layer removed: %d violations, want 0: %q", len(got), got)
	}
}

// rootViolations lists the App's root package among the dependencies of a
// package under app/: the feature packages sit below the wiring, which
// imports them, never the reverse.
func rootViolations(p pkgInfo) []string {
	r := rel(p.ImportPath)
	if !strings.HasPrefix(r, "app/") {
		return nil
	}
	var out []string
	for _, d := range p.Deps {
		if d == module+"/app" {
			out = append(out, fmt.Sprintf("%s depends on app, the App's wiring; features sit below it", r))
		}
	}
	return out
}

func TestFeaturesSitBelowTheRoot(t *testing.T) {
	for _, p := range listPackages(t) {
		for _, v := range rootViolations(p) {
			t.Error(v)
		}
	}
}

// TestFeatureRulesCanFail: a planted app/verdict that reaches the App's
// root and internal/gh is caught by both rules; a planted package beside
// app (not under it) is not a feature, and the verdict's layer removed from
// the rules lets its GitHub import through (the negative control).
func TestFeatureRulesCanFail(t *testing.T) {
	planted := pkgInfo{ImportPath: module + "/app/verdict", Deps: []string{module + "/app", module + "/internal/gh"}}
	if got := append(rootViolations(planted), layerViolations(planted, layers)...); len(got) != 2 {
		t.Errorf("planted app/verdict → app, internal/gh: %d violations, want 2: %q", len(got), got)
	}
	if got := rootViolations(pkgInfo{ImportPath: module + "/cmd/internal/cli", Deps: []string{module + "/app"}}); len(got) != 0 {
		t.Errorf("cmd/internal/cli → app is the composition root's arrow: %q", got)
	}
	without := maps.Clone(layers)
	delete(without, "app/verdict")
	if got := layerViolations(planted, without); len(got) != 0 {
		t.Errorf("with the verdict's layer removed: %d violations, want 0: %q", len(got), got)
	}
}

// testOnly are the packages of test infrastructure: no production package
// may depend on them, except as fakeUsers allows.
var testOnly = []string{"internal/testkit/appkit", "internal/testkit/ghfake", "internal/testkit/browser", "internal/testkit/fixtures", "internal/testkit/golden", "internal/testkit/pgtest", "internal/testkit/creds"}

// fakeUsers are the production packages allowed to depend on a test-only
// package, and how: cmd/internal/demo (aepgate-demo runs the App against
// the fake GitHub in-process) may import internal/testkit/ghfake;
// cmd/aepgate-demo may reach it only through cmd/internal/demo, never by
// importing it. The product binaries, cmd/aepgate and cmd/aepgate-app, may
// not reach it at all.
var fakeUsers = map[string]fakeUse{
	"cmd/internal/demo": {infra: "internal/testkit/ghfake"},
	"cmd/aepgate-demo":  {infra: "internal/testkit/ghfake", via: "cmd/internal/demo"},
	// The load tool sends GitHub's recorded payloads.
	"internal/loadgen": {infra: "internal/testkit/fixtures"},
}

// fakeUse is one allowance: the test-only package a production package may
// depend on, and the package it must reach it through ("" lets it import
// it directly).
type fakeUse struct {
	infra string
	via   string
}

// TestFakeIsTestOnly keeps the test infrastructure out of every production
// package but the demo's, and the testing package out of the binary.
func TestFakeIsTestOnly(t *testing.T) {
	for _, v := range testOnlyViolations(listPackages(t), fakeUsers) {
		t.Error(v)
	}
}

// testOnlyViolations lists the dependencies on test infrastructure that
// allowed does not permit, and any dependency of a binary (cmd/...) on
// testing.
func testOnlyViolations(pkgs []pkgInfo, allowed map[string]fakeUse) []string {
	var out []string
	for _, p := range pkgs {
		r := rel(p.ImportPath)
		if under(r, "cmd") && slices.Contains(p.Deps, "testing") {
			out = append(out, r+" depends on testing: a binary must not link test code")
		}
		for _, infra := range testOnly {
			if testInfra(r) || !slices.Contains(p.Deps, module+"/"+infra) {
				continue
			}
			if u, ok := allowed[r]; ok && u.infra == infra && allowedUse(p, u) {
				continue
			}
			out = append(out, fmt.Sprintf("%s depends on %s, which is test infrastructure", r, infra))
		}
	}
	return out
}

// testInfra reports whether r is test infrastructure, which may build on
// other test infrastructure (appkit runs the App on the fake GitHub).
func testInfra(r string) bool {
	return slices.ContainsFunc(testOnly, func(infra string) bool { return under(r, infra) })
}

// allowedUse reports whether p's dependency on u.infra is the one u permits.
func allowedUse(p pkgInfo, u fakeUse) bool {
	if u.via == "" {
		return true
	}
	return !slices.Contains(p.Imports, module+"/"+u.infra) && slices.Contains(p.Imports, module+"/"+u.via)
}

// TestTestOnlyRuleCanFail is TestFakeIsTestOnly's negative control: planted
// listings that break the rule are caught, and with the demo's allowance
// removed the demo itself is flagged.
func TestTestOnlyRuleCanFail(t *testing.T) {
	fake, browser, demo := module+"/internal/testkit/ghfake", module+"/internal/testkit/browser", module+"/cmd/internal/demo"
	appkit := module + "/internal/testkit/appkit"
	tests := []struct {
		name    string
		pkg     pkgInfo
		allowed map[string]fakeUse
		want    int
	}{
		{"app imports the fake", pkgInfo{ImportPath: module + "/app", Imports: []string{fake}, Deps: []string{fake}}, fakeUsers, 1},
		{"a feature imports the App's test world", pkgInfo{ImportPath: module + "/app/deploy", Imports: []string{appkit}, Deps: []string{appkit, module + "/app", fake}}, fakeUsers, 2},
		{"the App's test world runs on the fake", pkgInfo{ImportPath: appkit, Imports: []string{fake, module + "/app"}, Deps: []string{fake, module + "/app"}}, fakeUsers, 0},
		{"demo imports the browser", pkgInfo{ImportPath: demo, Imports: []string{browser}, Deps: []string{browser, fake}}, fakeUsers, 1},
		{"demo binary imports the fake directly", pkgInfo{ImportPath: module + "/cmd/aepgate-demo", Imports: []string{fake, demo}, Deps: []string{fake, demo}}, fakeUsers, 1},
		{"demo binary links testing", pkgInfo{ImportPath: module + "/cmd/aepgate-demo", Imports: []string{demo}, Deps: []string{fake, demo, "testing"}}, fakeUsers, 1},
		{"product binary links testing", pkgInfo{ImportPath: module + "/cmd/aepgate", Deps: []string{"testing"}}, fakeUsers, 1},
		{"product binary through the demo", pkgInfo{ImportPath: module + "/cmd/aepgate", Imports: []string{demo}, Deps: []string{fake, demo}}, fakeUsers, 1},
		{"demo allowed", pkgInfo{ImportPath: demo, Imports: []string{fake}, Deps: []string{fake}}, fakeUsers, 0},
		{"demo binary through the demo allowed", pkgInfo{ImportPath: module + "/cmd/aepgate-demo", Imports: []string{demo}, Deps: []string{fake, demo}}, fakeUsers, 0},
		{"demo without its allowance", pkgInfo{ImportPath: demo, Imports: []string{fake}, Deps: []string{fake}}, nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := testOnlyViolations([]pkgInfo{tt.pkg}, tt.allowed); len(got) != tt.want {
				t.Errorf("violations = %q, want %d", got, tt.want)
			}
		})
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
// the fake answers it; the App's test world, test-only, acts as GitHub's
// users through the fake's client).
var githubSpeakers = []string{"internal/gh", "internal/testkit/ghfake", "internal/testkit/appkit"}

// speaksGitHub returns the GitHub client imports of p that the README's
// import rules forbid: every direct import of go-github or githubv4 outside
// githubSpeakers.
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
