package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestMergePathOwners: a base's owners map keeps its patterns under a
// repository's, which adds owners to a shared pattern and patterns of its
// own; the negative control without the rule lets the repository's map
// replace the base's.
func TestMergePathOwners(t *testing.T) {
	base := "version: 1\nowners: {\"*\": [olivia], \"api/**\": [ann]}\n"
	repo := ext + "owners: {\"*\": [rob], \"api/**\": [amy], \"web/**\": [wes]}\n"
	for _, tt := range []struct {
		name  string
		rules []MergeRule
		want  []PathOwner
	}{
		{"unioned per pattern", DefaultMergeRules(), []PathOwner{{Pattern: "api/**", Owners: []string{"ann", "amy"}}, {Pattern: "web/**", Owners: []string{"wes"}}}},
		{"negative control: without the rule the repository's map replaces the base's", without(DefaultMergeRules(), "path_owners"),
			[]PathOwner{{Pattern: "api/**", Owners: []string{"amy"}}, {Pattern: "web/**", Owners: []string{"wes"}}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := resolveText(t, base, repo, tt.rules)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, r.Config.PathOwners, cmpopts.IgnoreFields(PathOwner{}, "Line")); diff != "" {
				t.Errorf("path owners (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMergeOwnersFrom: a repository under a base with owners may not take
// its owners from CODEOWNERS (they would replace the inherited ones); with
// the rule removed it may.
func TestMergeOwnersFrom(t *testing.T) {
	base := "version: 1\nowners: [olivia]\n"
	repo := ext + "owners: {from: CODEOWNERS}\n"
	if _, err := resolveText(t, base, repo, DefaultMergeRules()); err == nil || !strings.Contains(err.Error(), "would replace the inherited owners [olivia]") {
		t.Errorf("Resolve = %v, want the CODEOWNERS source refused", err)
	}
	r, err := resolveText(t, base, repo, without(DefaultMergeRules(), "owners_from"))
	if err != nil || r.Config.OwnersFrom != OwnersFromCodeOwners {
		t.Errorf("negative control: Resolve = %+v, %v; want the CODEOWNERS source kept", r, err)
	}
	if r, err := resolveText(t, "version: 1\n", repo, DefaultMergeRules()); err != nil || r.Config.OwnersFrom != OwnersFromCodeOwners {
		t.Errorf("under a base without owners: %+v, %v; want CODEOWNERS", r, err)
	}
	if _, err := resolveText(t, "version: 1\nowners: {from: CODEOWNERS}\n", ext+"owners: [rob]\n", DefaultMergeRules()); err == nil || !strings.Contains(err.Error(), "takes its owners from CODEOWNERS") {
		t.Errorf("owners listed under a CODEOWNERS base: %v, want refused", err)
	}
	if r, err := resolveText(t, "version: 1\nowners: {from: CODEOWNERS}\n", ext+"owners: [rob]\n", without(DefaultMergeRules(), "owners_from")); err != nil || r.Config.OwnersFrom != "" {
		t.Errorf("negative control: %+v, %v; want the listed owners kept and no CODEOWNERS source", r, err)
	}
}
