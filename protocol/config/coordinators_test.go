package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCoordinatorsScopeMap: the scope map names the repository's one
// authoritative coordinator; the flat list keeps today's meaning; every
// other form is refused at its line and column.
func TestCoordinatorsScopeMap(t *testing.T) {
	tests := []struct {
		name, yaml       string
		wantCoordinator  string
		wantCoordinators []string
		wantErr          string
	}{
		{"a flat list", "coordinators: [cody, dana]", "", []string{"cody", "dana"}, ""},
		{"a scope map", `coordinators: {"*": [cody]}`, "cody", []string{"cody"}, ""},
		{"a scope map in block style", "coordinators:\n  \"*\":\n    - coord[bot]", "coord[bot]", []string{"coord[bot]"}, ""},
		{"two in one scope", `coordinators: {"*": [cody, dana]}`, "", nil,
			".github/aepgate.yml:2:21: coordinators[*]: must name exactly one authoritative coordinator (craft allows one per scope), not 2"},
		{"none in the scope", `coordinators: {"*": []}`, "", nil,
			".github/aepgate.yml:2:21: coordinators[*]: must name exactly one authoritative coordinator (craft allows one per scope), not 0"},
		{"a team", `coordinators: {"*": ["@acme/leads"]}`, "", nil,
			".github/aepgate.yml:2:22: coordinators[*]: must be one login, not the team @acme/leads: a scope has one authoritative coordinator"},
		{"another scope", `coordinators: {"*": [cody], docs: [dana]}`, "", nil,
			`.github/aepgate.yml:2:29: coordinators[docs]: unknown scope "docs"; the only scope is "*" (the repository; quote it)`},
		{"a login, not a list", `coordinators: {"*": cody}`, "", nil,
			".github/aepgate.yml:2:21: coordinators[*]: must be a list of one login, not a string"},
		{"an empty map", `coordinators: {}`, "", nil,
			`.github/aepgate.yml:2:15: coordinators: a scope map needs the "*" entry: {"*": [login]}, the repository's one authoritative coordinator`},
		{"a bad login", `coordinators: {"*": [-x]}`, "", nil, "coordinators[*][0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(DefaultPath, []byte("version: 1\n"+tt.yaml+"\n"))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one holding %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Coordinator != tt.wantCoordinator {
				t.Errorf("Coordinator = %q, want %q", c.Coordinator, tt.wantCoordinator)
			}
			if diff := cmp.Diff(tt.wantCoordinators, c.Coordinators); diff != "" {
				t.Errorf("Coordinators (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCoordinatorMerge: a base's authoritative coordinator stays, a
// repository naming another is refused, and the base's other coordinators
// are still listed (the gate log refuses them).
func TestCoordinatorMerge(t *testing.T) {
	base := "version: 1\ncoordinators: [fleet1, fleet2]\n"
	r, err := resolveText(t, base, "version: 1\nextends: acme/policy:aepgate.yml\ncoordinators: {\"*\": [cody]}\n", DefaultMergeRules())
	if err != nil {
		t.Fatal(err)
	}
	if r.Config.Coordinator != "cody" || !cmp.Equal(r.Config.Coordinators, []string{"fleet1", "fleet2", "cody"}) {
		t.Errorf("resolved coordinator %q, coordinators %v", r.Config.Coordinator, r.Config.Coordinators)
	}
	base = "version: 1\ncoordinators: {\"*\": [cody]}\n"
	if _, err := resolveText(t, base, "version: 1\nextends: acme/policy:aepgate.yml\ncoordinators: {\"*\": [dana]}\n", DefaultMergeRules()); err == nil || !strings.Contains(err.Error(), `"dana" differs from the inherited authoritative coordinator "cody"`) {
		t.Errorf("a repository replacing the base's authoritative coordinator: %v", err)
	}
	r, err = resolveText(t, base, "version: 1\nextends: acme/policy:aepgate.yml\ncoordinators: [dana]\n", DefaultMergeRules())
	if err != nil || r.Config.Coordinator != "cody" {
		t.Errorf("a flat list under a base's authoritative coordinator: %v, %+v", err, r)
	}
}
