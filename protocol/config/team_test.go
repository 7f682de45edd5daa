package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTeamsInLists(t *testing.T) {
	tests := []struct {
		name, yaml string
		wantErr    bool
	}{
		{"team owner", "version: 1\nowners: [olivia, \"@acme/leads\"]\n", false},
		{"team auditors", "version: 1\nauditors: [\"@acme/qa_team\"]\n", false},
		{"upper-case slug", "version: 1\nowners: [\"@acme/Leads\"]\n", true},
		{"no slug", "version: 1\nowners: [\"@acme/\"]\n", true},
		{"bad org", "version: 1\nowners: [\"@-acme/leads\"]\n", true},
		{"twice", "version: 1\nowners: [\"@acme/leads\", \"@ACME/leads\"]\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(DefaultPath, []byte(tt.yaml))
			if (err != nil) != tt.wantErr {
				t.Errorf("Parse: %v, want error %v", err, tt.wantErr)
			}
		})
	}
}

// TestWithMembers: teams are replaced by their members, each login once;
// a team with no members read counts for nobody.
func TestWithMembers(t *testing.T) {
	c := &Config{Owners: []string{"olivia", "@Acme/leads"}, Coordinators: []string{"@acme/ops"}, Auditors: []string{"carol", "@acme/leads"}}
	if diff := cmp.Diff([]Team{{"Acme", "leads"}, {"acme", "ops"}}, c.Teams()); diff != "" {
		t.Errorf("Teams (-want +got):\n%s", diff)
	}
	got := c.WithMembers(map[string][]string{"@acme/leads": {"dana", "Olivia"}})
	want := &Config{Owners: []string{"olivia", "dana"}, Auditors: []string{"carol", "dana", "Olivia"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("WithMembers (-want +got):\n%s", diff)
	}
	if c.Owners[1] != "@Acme/leads" {
		t.Error("WithMembers changed the config it was called on")
	}
}
