package config

import (
	"slices"
	"testing"

	"github.com/aepgate/aepgate/protocol/glob"
)

func TestMatchPath(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"docs/contract/**", "docs/contract/a.md", true},
		{"docs/contract/**", "docs/contract/x/y.md", true},
		{"docs/contract/**", "docs/contract", true},
		{"docs/contract/**", "docs/contracts/a.md", false},
		{"docs/contract/**", "docs/other/a.md", false},
		{"**/*.proto", "a.proto", true},
		{"**/*.proto", "api/v1/a.proto", true},
		{"**/*.proto", "api/v1/a.go", false},
		{"api/openapi.yaml", "api/openapi.yaml", true},
		{"api/openapi.yaml", "api/openapi.yml", false},
		{"docs/*/guide.md", "docs/run-1/guide.md", true},
		{"docs/*/guide.md", "docs/a/b/guide.md", false},
		{"docs/**/guide.md", "docs/a/b/guide.md", true},
		{"docs/**/**/guide.md", "docs/guide.md", true},
		{"./docs/*", "docs/x", true},
		{"docs/[", "docs/[", false},
		// GitHub's CODEOWNERS rules (glob.Match): a pattern without a
		// slash at any depth, a folder's files, a leading "/" anchors.
		{"*", "a/b", true},
		{"*.proto", "api/v1/a.proto", true},
		{"/*.proto", "api/v1/a.proto", false},
		{"api", "x/api/a.go", true},
		{"/api", "x/api/a.go", false},
		{"docs/", "docs/a/b.md", true},
		{"docs/contract", "docs/contract/a.md", true},
		{"docs/*", "docs/a/b.md", false},
		{"**", "a/b", true},
	}
	for _, tc := range tests {
		if got := MatchPath(tc.pattern, tc.name); got != tc.want {
			t.Errorf("MatchPath(%q, %q) = %v, want %v", tc.pattern, tc.name, got, tc.want)
		}
	}
}

func TestConfigLookups(t *testing.T) {
	c, err := Parse("f.yml", []byte("version: 1\nowners: [Alice]\ncoordinators: [bob]\nrun_documents: [docs/run-1, \"docs/runs/*\"]\ncontract_paths: [\"docs/contract/**\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want bool
	}{
		{"owner, other case", c.IsOwner("alice"), true},
		{"not owner", c.IsOwner("bob"), false},
		{"coordinator", c.IsCoordinator("BOB"), true},
		{"long s is no owner", c.IsOwner("\u017Fam"), false},
		{"dotless i is no coordinator", c.IsCoordinator("bob\u0131"), false},
		{"any auditor when unset", c.MayAudit("mallory"), true},
		{"contract path", c.IsContractPath("docs/contract/v1/api.md"), true},
		{"not contract path", c.IsContractPath("docs/contractual.md"), false},
		{"run document", c.IsRunDocumentDir("docs/runs/r7/"), true},
		{"run document exact", c.IsRunDocumentDir("docs/run-1"), true},
		{"not run document", c.IsRunDocumentDir("docs/run-2"), false},
	}
	for _, ck := range checks {
		if ck.got != ck.want {
			t.Errorf("%s: got %v, want %v", ck.name, ck.got, ck.want)
		}
	}
	c.Owners = []string{"sam"}
	if c.IsOwner("\u017Fam") || !c.IsOwner("SAM") {
		t.Error("a long-s login is taken for the owner sam, or SAM is not")
	}
	c.Auditors = []string{"carol", "kate"}
	if c.MayAudit("mallory") || !c.MayAudit("Carol") || c.MayAudit("\u212Aate") {
		t.Error("a set auditors list does not restrict audits")
	}
}

// FuzzMatchPath checks MatchPath never panics and that a name always
// matches itself when it holds no glob characters and is a pattern at all
// (glob.Valid: no empty segment).
func FuzzMatchPath(f *testing.F) {
	f.Add("docs/**/x", "docs/a/b/x")
	f.Add("**/**/*", "")
	f.Fuzz(func(t *testing.T, pattern, name string) {
		MatchPath(pattern, name)
		if !containsAny(name, `*?[\`) && glob.Valid(name) == nil && !MatchPath(name, name) {
			t.Fatalf("%q does not match itself", name)
		}
	})
}

func containsAny(s, chars string) bool {
	for _, c := range chars {
		for _, r := range s {
			if r == c {
				return true
			}
		}
	}
	return false
}

func TestBuiltinContractPaths(t *testing.T) {
	c := Default()
	for _, name := range []string{".github/aepgate.yml", ".github/workflows/ci.yml", ".github/workflows/release/x.yaml", "plans/export/progress.json",
		"plans/export/phases/phase-2-redis.md"} {
		if !c.IsContractPath(name) {
			t.Errorf("%s is not a contract path with the defaults", name)
		}
	}
	for _, name := range []string{"plans/export/state/phase-1.json", "plans/export/HANDOFF.md", "plans/export/phases/x/y.md", "README.md", ".github/dependabot.yml", "x/.github/workflows/ci.yml"} {
		if c.IsContractPath(name) {
			t.Errorf("%s is a contract path with the defaults", name)
		}
	}
}

// TestWorkflowsAreContractPathsNegativeControl: without the built-in
// ".github/workflows/**" a change to a workflow needs nobody's approval.
func TestWorkflowsAreContractPathsNegativeControl(t *testing.T) {
	c := Default()
	without := slices.DeleteFunc(BuiltinContractPaths(), func(p string) bool { return p == ".github/workflows/**" })
	for _, name := range []string{".github/workflows/ci.yml", ".github/workflows/deploy.yaml"} {
		if !c.IsContractPath(name) {
			t.Errorf("%s is not a contract path", name)
		}
		if c.isContractPath(without, name) {
			t.Errorf("without the workflows glob, %s is still a contract path: the control shows nothing", name)
		}
	}
}

// TestBriefsAreContractPathsNegativeControl: without the built-in
// "plans/*/phases/*.md" an executor could widen its own task's file list
// with nobody's approval.
func TestBriefsAreContractPathsNegativeControl(t *testing.T) {
	c := Default()
	name := "plans/export/phases/phase-2-redis.md"
	without := slices.DeleteFunc(BuiltinContractPaths(), func(p string) bool { return p == "plans/*/phases/*.md" })
	if !c.IsContractPath(name) || c.isContractPath(without, name) {
		t.Errorf("%s: contract path %v, without the briefs glob %v; want true, false", name, c.IsContractPath(name), c.isContractPath(without, name))
	}
}
