package verdict

import (
	"errors"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// TestPolicy: a config that extends a base is judged only with its base:
// merged when the base was read, refused (never the repository's file
// alone) when it was not read, was read for another ref, cannot be read or
// is invalid.
func TestPolicy(t *testing.T) {
	const ext = "version: 1\nextends: acme/.github:aepgate.yml\nowners: [rob]\n"
	const ref = "acme/.github:aepgate.yml"
	for _, tt := range []struct {
		name       string
		base       *snapshot.BaseFile
		wantOwners string
		wantErr    string
		wantNoBase bool
	}{
		{name: "merged", base: &snapshot.BaseFile{Ref: ref, Text: "version: 1\nowners: [olivia]\n"}, wantOwners: "olivia rob"},
		{name: "not read", wantNoBase: true},
		{name: "read for another ref", base: &snapshot.BaseFile{Ref: "acme/other:aepgate.yml", Text: "version: 1\n"}, wantNoBase: true},
		{name: "unreadable", base: &snapshot.BaseFile{Ref: ref, Unreadable: "aepgate.yml is not on the default branch of acme/.github"},
			wantErr: "its base policy acme/.github:aepgate.yml cannot be read (aepgate.yml is not on the default branch of acme/.github)"},
		{name: "invalid base", base: &snapshot.BaseFile{Ref: ref, Text: "version: 1\nowner: [olivia]\n"}, wantErr: "acme/.github:aepgate.yml:2:1: owner: unknown key"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Policy(snapshot.ConfigFile{Found: true, Text: ext, Base: tt.base}, config.DefaultMergeRules())
			switch {
			case tt.wantNoBase:
				if !errors.Is(err, config.ErrNoBase) {
					t.Fatalf("Policy = %v, %v; want ErrNoBase", r, err)
				}
			case tt.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Policy = %v, %v; want an error containing %q", r, err, tt.wantErr)
				}
			default:
				if err != nil {
					t.Fatal(err)
				}
				if got := strings.Join(r.Config.Owners, " "); got != tt.wantOwners {
					t.Errorf("owners = %q, want %q", got, tt.wantOwners)
				}
			}
		})
	}
}
