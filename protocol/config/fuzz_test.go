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
	})
}
