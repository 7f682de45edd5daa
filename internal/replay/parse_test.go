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
