package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseRef(t *testing.T) {
	for _, tt := range []struct {
		in      string
		want    Ref
		wantErr string
	}{
		{in: "acme/.github:aepgate.yml", want: Ref{Owner: "acme", Repo: ".github", Path: "aepgate.yml"}},
		{in: "acme/policy:policies/aepgate.yml", want: Ref{Owner: "acme", Repo: "policy", Path: "policies/aepgate.yml"}},
		{in: "acme/.github", wantErr: "must be OWNER/REPO:PATH"},
		{in: "acme:aepgate.yml", wantErr: "names no repository"},
		{in: "acme/.github:aepgate.yml@main", wantErr: "default branch"},
		{in: "acme/.github@v1:aepgate.yml", wantErr: "repository"},
		{in: "-acme/.github:aepgate.yml", wantErr: "owner"},
		{in: "acme/..:aepgate.yml", wantErr: "repository"},
		{in: "acme/a b:aepgate.yml", wantErr: "repository"},
		{in: "acme/.github:", wantErr: "path"},
		{in: "acme/.github:/etc/passwd", wantErr: "path"},
		{in: "acme/.github:../x.yml", wantErr: "path"},
		{in: "acme/.github:a//b.yml", wantErr: "path"},
		{in: "acme/.github:./a.yml", wantErr: "path"},
		{in: "https://github.com/acme/.github:aepgate.yml", wantErr: "names no repository"},
	} {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseRef(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ParseRef(%q) = %v, %v; want an error containing %q", tt.in, got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseRef(%q) (-want +got):\n%s", tt.in, diff)
			}
			if got.String() != tt.in {
				t.Errorf("String() = %q, want %q", got.String(), tt.in)
			}
		})
	}
}

// TestExtendsPositioned: a malformed extends is a positioned error of the
// file, like any other key.
func TestExtendsPositioned(t *testing.T) {
	_, err := Parse("f.yml", []byte("version: 1\nextends: acme/.github:aepgate.yml@v2\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "f.yml:2:10: extends: ") {
		t.Fatalf("Parse = %v, want an error at f.yml:2:10 on extends", err)
	}
}

// FuzzParseRef checks that ParseRef never panics and that what it accepts
// prints back as written, with no "@" and a valid path.
func FuzzParseRef(f *testing.F) {
	for _, s := range []string{"acme/.github:aepgate.yml", "a/b:c@d", "a/b:", "/:", "a/b:c/../d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRef(s)
		if err != nil {
			return
		}
		if r.String() != s || strings.Contains(r.Path, "@") || checkRefPath(r.Path) != "" {
			t.Fatalf("ParseRef(%q) accepted %+v", s, r)
		}
	})
}
