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
