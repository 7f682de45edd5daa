package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMergeAuthority: merge.authority decodes owners, merge-queue and
// logins; an empty list, a duplicate, a bad login and an unknown key are
// positioned errors; unset leaves it empty (anyone may merge).
func TestMergeAuthority(t *testing.T) {
	tests := []struct {
		name, yaml string
		want       []string
		wantErr    string
	}{
		{"unset", "version: 1\n", nil, ""},
		{"listed", "version: 1\nmerge:\n  authority: [owners, merge-queue, carol, \"relay[bot]\"]\n", []string{"owners", "merge-queue", "carol", "relay[bot]"}, ""},
		{"empty", "version: 1\nmerge:\n  authority: []\n", nil, "x.yml:3:14: merge.authority: must list who may merge"},
		{"duplicate", "version: 1\nmerge:\n  authority: [carol, Carol]\n", nil, `x.yml:3:22: merge.authority[1]: duplicate entry "Carol"`},
		{"not a login", "version: 1\nmerge:\n  authority: [owners, -x]\n", nil, `merge.authority[1]: "-x" is not a GitHub login`},
		{"unknown key", "version: 1\nmerge:\n  who: [owners]\n", nil, "x.yml:3:3: merge.who: unknown key"},
		{"scalar", "version: 1\nmerge:\n  authority: owners\n", nil, "merge.authority: must be a list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse("x.yml", []byte(tt.yaml))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, c.Merge.Authority); diff != "" {
				t.Errorf("authority (-want +got):\n%s", diff)
			}
		})
	}
	c := Merge{Authority: []string{"owners", "carol", "merge-queue", "dave"}}
	if diff := cmp.Diff([]string{"carol", "dave"}, c.Coordinators()); diff != "" {
		t.Errorf("coordinators (-want +got):\n%s", diff)
	}
}
