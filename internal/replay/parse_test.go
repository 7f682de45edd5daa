package replay

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/coverage"
)

func TestParseNameStatus(t *testing.T) {
	tests := []struct {
		name string
		out  string
		want []coverage.PathDiff
		err  bool
	}{
		{"empty", "", nil, false},
		{"pairs", "M\x00f.txt\x00A\x00dir/new file\x00D\x00-gone\x00", []coverage.PathDiff{{Path: "f.txt", Status: "M"}, {Path: "dir/new file", Status: "A"}, {Path: "-gone", Status: "D"}}, false},
		{"rename status", "R100\x00a\x00b\x00", nil, true},
		{"unterminated", "M\x00f", nil, true},
		{"odd", "M\x00", nil, true},
		{"empty path", "M\x00\x00", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseNameStatus([]byte(tt.out))
			if (err != nil) != tt.err {
				t.Fatalf("err = %v, want error %v", err, tt.err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseNameStatus (-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzParseNameStatus(f *testing.F) {
	f.Add([]byte("M\x00f.txt\x00A\x00b\x00"))
	f.Fuzz(func(t *testing.T, out []byte) {
		got, err := ParseNameStatus(out)
		if err != nil {
			return
		}
		for _, d := range got {
			if d.Path == "" || len(d.Status) != 1 {
				t.Fatalf("entry %+v accepted", d)
			}
		}
	})
}

func TestSupported(t *testing.T) {
	tests := map[string]bool{
		"git version 2.39.5\n":             true,
		"git version 2.38.0":               true,
		"git version 2.45.1.windows.1":     true,
		"git version 3.0.0":                true,
		"git version 2.37.7":               false,
		"git version 1.99.0":               false,
		"git version 2":                    false,
		"git version x.y":                  false,
		"hub version 2.39.0":               false,
		"":                                 false,
		"git version 2.38-rc0 (Apple Git)": false,
	}
	for in, want := range tests {
		if got := Supported(in); got != want {
			t.Errorf("Supported(%q) = %v, want %v", in, got, want)
		}
	}
}
