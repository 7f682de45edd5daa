package config

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"go.yaml.in/yaml/v3"
)

type yamlNode = yaml.Node

// FuzzParse checks that Parse never panics, returns exactly one of a config
// or an error, and that every error is a positioned config.Error.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.yml")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("version: 1\nnegative_controls: [{name: a, break: b, restore: c, test: d, timeout: 1e400}]\n"))
	f.Add([]byte("a: &a [*a, *a]\n"))
	f.Add([]byte("version: 1\nowners: {\"*\": [a], \"**/x\": [\"@o/t\"], b/**: [c]}\n"))
	f.Add([]byte("version: 1\nowners: {from: CODEOWNERS}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("f.yml", data)
		if (c == nil) == (err == nil) {
			t.Fatalf("Parse returned config %v and error %v", c, err)
		}
		if err != nil {
			var es Errors
			if !errors.As(err, &es) || len(es) == 0 {
				t.Fatalf("error %T %v is not a non-empty Errors", err, err)
			}
			return
		}
		if c.Version != 1 {
			t.Fatalf("accepted version %d", c.Version)
		}
		checkOwners(t, c)
	})
}

// FuzzResolve checks that Resolve never panics on two parsed files and that
// what it accepts only adds restrictions to the base: every inherited owner
// and contract path is kept, no limit is looser, the mode is no laxer.
func FuzzResolve(f *testing.F) {
	f.Add([]byte("version: 1\nowners: [a]\nlimits: {corrections: 2}\n"), []byte("version: 1\nextends: o/r:p.yml\nowners: [b]\nlimits: {corrections: 5}\n"))
	f.Add([]byte("version: 1\nmode: advisory\ncontract_paths: [x]\n"), []byte("version: 1\nextends: o/r:p.yml\nowners: []\nmode: enforce\n"))
	f.Fuzz(func(t *testing.T, baseData, repoData []byte) {
		base, err := ParseFile("o/r:p.yml", baseData)
		if err != nil {
			return
		}
		repo, err := ParseFile("repo.yml", repoData)
		if err != nil || repo.Config.Extends == "" {
			return
		}
		r, err := Resolve(repo, base, DefaultMergeRules())
		if (r == nil) == (err == nil) {
			t.Fatalf("Resolve returned %v and %v", r, err)
		}
		if err != nil {
			return
		}
		b, c := base.Config, r.Config
		for _, o := range append(append([]string{}, b.Owners...), b.ContractPaths...) {
			if !containsFold(c.Owners, o) && !containsFold(c.ContractPaths, o) {
				t.Fatalf("%q of the base was dropped: %+v", o, c)
			}
		}
		if c.Limits.Corrections > b.Limits.Corrections || c.Limits.Exchanges > b.Limits.Exchanges || c.Readback.Timeout > b.Readback.Timeout {
			t.Fatalf("a limit is looser than the base's: %+v over %+v", c.Limits, b.Limits)
		}
		if b.Mode == ModeEnforce && c.Mode != ModeEnforce {
			t.Fatalf("mode %s under an enforcing base", c.Mode)
		}
	})
}

// checkOwners holds what an accepted owners map promises: a "*" entry
// (the repository's owners) and at least one owner per pattern; a
// CODEOWNERS source names no owners in the file.
func checkOwners(t *testing.T, c *Config) {
	t.Helper()
	if len(c.PathOwners) > 0 && len(c.Owners) == 0 {
		t.Fatalf("accepted path owners %v without repository owners", c.PathOwners)
	}
	for _, p := range c.PathOwners {
		if len(p.Owners) == 0 || p.Pattern == FallbackPattern {
			t.Fatalf("accepted path owner %+v", p)
		}
		c.OwnersOf(p.Pattern)
	}
	if c.OwnersFrom != "" && (c.OwnersFrom != OwnersFromCodeOwners || len(c.Owners)+len(c.PathOwners) > 0) {
		t.Fatalf("accepted owners from %q with %v %v", c.OwnersFrom, c.Owners, c.PathOwners)
	}
}
