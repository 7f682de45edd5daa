package gitobj

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseTree(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    map[string]Entry
		wantErr bool
	}{
		{"empty", "", map[string]Entry{}, false},
		{"entries", "100644 blob aa\ta b.go\x00120000 blob bb\tlink\x00040000 tree cc\tdir\x00",
			map[string]Entry{"a b.go": {"100644", "blob", "aa"}, "link": {"120000", "blob", "bb"}, "dir": {"040000", "tree", "cc"}}, false},
		{"a tab in a path", "100644 blob aa\ta\tb\x00", map[string]Entry{"a\tb": {"100644", "blob", "aa"}}, false},
		{"no tab", "100644 blob aa a\x00", nil, true},
		{"too few fields", "100644 aa\ta\x00", nil, true},
		{"no path", "100644 blob aa\t\x00", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseTree([]byte(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" && !tt.wantErr {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseBatch(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    map[string][]byte
		wantErr bool
	}{
		{"two", "aa blob 3\nx\ny\nbb blob 0\n\n", map[string][]byte{"aa": []byte("x\ny"), "bb": {}}, false},
		{"content holding a header", "aa blob 12\nbb blob 1\nz\n\n", map[string][]byte{"aa": []byte("bb blob 1\nz\n")}, false},
		{"missing", "aa missing\n", nil, true},
		{"short", "aa blob 9\nxy\n", nil, true},
		{"no newline after content", "aa blob 2\nxyz", nil, true},
		{"negative size", "aa blob -1\n\n", nil, true},
		{"no header end", "aa blob 2", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseBatch([]byte(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" && !tt.wantErr {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzParseTree: git's output never panics the parser, and every entry it
// returns has a path and three fields.
func FuzzParseTree(f *testing.F) {
	f.Add([]byte("100644 blob aa\ta.go\x00120000 blob bb\tl\x00"))
	f.Add([]byte("\x00\x00\t"))
	f.Fuzz(func(t *testing.T, in []byte) {
		got, err := ParseTree(in)
		if err != nil {
			return
		}
		for p, e := range got {
			if p == "" || e.Mode == "" || e.Type == "" || e.Object == "" {
				t.Errorf("entry %q = %+v", p, e)
			}
		}
	})
}

// FuzzParseBatch: the parser never panics and never returns more bytes
// than it was given.
func FuzzParseBatch(f *testing.F) {
	f.Add([]byte("aa blob 3\nx\ny\nbb blob 0\n\n"))
	f.Add([]byte("aa blob 99999999999999999999\n"))
	f.Add([]byte("aa blob 9223372036854775807\nx\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		got, err := ParseBatch(in)
		if err != nil {
			return
		}
		n := 0
		for _, c := range got {
			n += len(c)
		}
		if n > len(in) {
			t.Errorf("%d content bytes from %d input bytes", n, len(in))
		}
	})
}
