package gh

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadTokenFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good", "  ghs_secret\n", 0o600)
	tests := []struct {
		name string
		path string
		want string
	}{
		{"good", good, "ghs_secret"},
		{"read-only owner", write("ro", "tok", 0o400), "tok"},
		{"no flag", "", ""},
		{"missing", filepath.Join(dir, "nope"), ""},
		{"directory", dir, ""},
		{"mode 0644", write("world", "tok", 0o644), ""},
		{"mode 0640", write("group", "tok", 0o640), ""},
		{"empty", write("empty", " \n\t", 0o600), ""},
		{"too long", write("long", strings.Repeat("x", 4097), 0o600), ""},
		{"4096 is fine", write("max", strings.Repeat("x", 4096), 0o600), strings.Repeat("x", 4096)},
		{"NUL", write("nul", "to\x00k", 0o600), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadTokenFile(tt.path)
			if got != tt.want {
				t.Errorf("token %q, want %q (err %v)", got, tt.want, err)
			}
			if tt.want == "" && !errors.Is(err, ErrTokenFile) {
				t.Errorf("err = %v, want ErrTokenFile", err)
			}
			if err != nil && strings.Contains(err.Error(), "secret") {
				t.Errorf("error leaks the token: %v", err)
			}
		})
	}
}

func TestReadTokenFileOtherOwner(t *testing.T) {
	p := filepath.Join(t.TempDir(), "tok")
	if err := os.WriteFile(p, []byte("tok"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := readTokenFile(p, os.Getuid()+1); !errors.Is(err, ErrTokenFile) || !strings.Contains(err.Error(), "not owned by you") {
		t.Errorf("a file owned by another uid: err = %v", err)
	}
}
