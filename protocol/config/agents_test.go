package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAgentsKey(t *testing.T) {
	tests := []struct {
		name, yaml string
		want       []string
		wantErr    bool
	}{
		{"bot and user", "version: 1\nagents: [\"copilot-swe-agent[bot]\", Copilot, agent-runner]\n", []string{"copilot-swe-agent[bot]", "Copilot", "agent-runner"}, false},
		{"team", "version: 1\nagents: [\"@acme/agents\"]\n", []string{"@acme/agents"}, false},
		{"absent", "version: 1\n", nil, false},
		{"not a login", "version: 1\nagents: [\"not a login\"]\n", nil, true},
		{"twice", "version: 1\nagents: [Copilot, copilot]\n", nil, true},
		{"not a list", "version: 1\nagents: Copilot\n", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(DefaultPath, []byte(tt.yaml))
			if (err != nil) != tt.wantErr {
				t.Fatalf("Parse: %v, want error %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(tt.want, c.Agents); diff != "" {
				t.Errorf("Agents (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAgentsAmong(t *testing.T) {
	c := &Config{Agents: []string{"copilot-swe-agent[bot]", "agent-runner"}}
	tests := []struct {
		name   string
		logins []string
		want   []string
	}{
		{"none", []string{"alice", "bob", ""}, nil},
		{"author", []string{"Copilot-SWE-Agent[bot]", "alice"}, []string{"Copilot-SWE-Agent[bot]"}},
		{"each once", []string{"agent-runner", "AGENT-RUNNER", "copilot-swe-agent[bot]"}, []string{"agent-runner", "copilot-swe-agent[bot]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, c.AgentsAmong(tt.logins...)); diff != "" {
				t.Errorf("AgentsAmong (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAgentTeams: a team of agents is read like any other team and
// replaced by its members.
func TestAgentTeams(t *testing.T) {
	c := &Config{Agents: []string{"@acme/agents", "Copilot"}}
	if diff := cmp.Diff([]Team{{"acme", "agents"}}, c.Teams()); diff != "" {
		t.Errorf("Teams (-want +got):\n%s", diff)
	}
	got := c.WithMembers(map[string][]string{"@acme/agents": {"agent-runner"}})
	if diff := cmp.Diff([]string{"agent-runner", "Copilot"}, got.Agents); diff != "" {
		t.Errorf("WithMembers agents (-want +got):\n%s", diff)
	}
	if !got.IsAgent("AGENT-RUNNER") || got.IsAgent("@acme/agents") || c.IsAgent("") {
		t.Error("IsAgent: members are agents, the team name and the empty login are not")
	}
}
