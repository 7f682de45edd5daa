package cli

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseEnvFile(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     map[string]string
		err      string
	}{
		{"lines", "# c\n\nA=1\nexport B=two words\r\nC=\"q\"\nD='s'\nE=x=y\n", map[string]string{"A": "1", "B": "two words", "C": "q", "D": "s", "E": "x=y"}, ""},
		{"empty value", "A=\n", map[string]string{"A": ""}, ""},
		{"no equals", "A=1\nnonsense\n", nil, "line 2: want KEY=VALUE"},
		{"space in key", "A B=1\n", nil, "line 1"},
		{"empty key", "=1\n", nil, "line 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseEnvFile(tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// FuzzParseEnvFile: any file either parses into keys without blanks or
// '=' or is refused naming a line; it never panics.
func FuzzParseEnvFile(f *testing.F) {
	for _, s := range []string{"A=1\n", "# x\nexport B='y'\n", "=\n", "\"\n", "A=\"\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		vars, err := parseEnvFile(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "line ") {
				t.Errorf("error %q names no line", err)
			}
			return
		}
		for k := range vars {
			if k == "" || strings.ContainsAny(k, " \t=") {
				t.Errorf("key %q", k)
			}
		}
	})
}
