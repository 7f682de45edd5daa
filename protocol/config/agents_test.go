package config

import (
	"slices"
	"strings"
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

func TestAgentsMapping(t *testing.T) {
	tests := []struct {
		name      string
		yml       string
		agents    []string
		approvals int
		settings  map[string]AgentSetting
		wantErr   string
	}{
		{"approvals only", "version: 1\nagents: {approvals: 2}\n", nil, 2, nil, ""},
		{"accounts", "version: 1\nagents:\n  approvals: 3\n  accounts:\n    \"claude[bot]\": {triggers: [\"@claude\", /fix], labels: [claude], paths: [\"src/auth/**\"]}\n    Copilot:\n",
			[]string{"claude[bot]", "Copilot"}, 3,
			map[string]AgentSetting{"claude[bot]": {Triggers: []string{"@claude", "/fix"}, Labels: []string{"claude"}, Paths: []string{"src/auth/**"}}, "Copilot": {}}, ""},
		{"approvals zero", "version: 1\nagents: {approvals: 0}\n", nil, 1, nil, "agents.approvals"},
		{"approvals too many", "version: 1\nagents: {approvals: 11}\n", nil, 1, nil, "agents.approvals"},
		{"bad trigger", "version: 1\nagents: {accounts: {Copilot: {triggers: [copilot]}}}\n", nil, 1, nil, "must be a mention"},
		{"trigger with a space", "version: 1\nagents: {accounts: {Copilot: {triggers: [\"@co pilot\"]}}}\n", nil, 1, nil, "must be a mention"},
		{"unknown setting", "version: 1\nagents: {accounts: {Copilot: {words: [\"@x\"]}}}\n", nil, 1, nil, "words"},
		{"not a login", "version: 1\nagents: {accounts: {\"not a login\": {}}}\n", nil, 1, nil, "not a login"},
		{"duplicate", "version: 1\nagents: {accounts: {Copilot: {}, copilot: {}}}\n", nil, 1, nil, "duplicate"},
		{"scalar", "version: 1\nagents: Copilot\n", nil, 1, nil, "must be a list of logins or a mapping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(".github/aepgate.yml", []byte(tt.yml))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Parse error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.agents, c.Agents); diff != "" {
				t.Errorf("Agents (-want +got):\n%s", diff)
			}
			if c.AgentApprovalsNeeded() != tt.approvals {
				t.Errorf("AgentApprovalsNeeded = %d, want %d", c.AgentApprovalsNeeded(), tt.approvals)
			}
			if diff := cmp.Diff(tt.settings, c.AgentSettings); diff != "" {
				t.Errorf("AgentSettings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAgentSettingsOf(t *testing.T) {
	c := &Config{AgentSettings: map[string]AgentSetting{"Claude[bot]": {Labels: []string{"claude"}}, "x": {Paths: []string{"a/**"}}}}
	if diff := cmp.Diff(AgentSetting{Labels: []string{"claude"}, Paths: DefaultAgentPaths()}, c.AgentSettingsOf("claude[bot]")); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a/**"}, c.AgentSettingsOf("X").Paths); diff != "" {
		t.Errorf("own paths (-want +got):\n%s", diff)
	}
	if !slices.Contains(DefaultAgentPaths(), ".github/workflows/**") || !slices.Contains(DefaultAgentPaths(), "**/AGENTS.md") {
		t.Errorf("DefaultAgentPaths = %v: want the workflows and the agents' instructions", DefaultAgentPaths())
	}
}

// TestAgentsMerge: a repository may raise agents.approvals and add
// triggers, labels and paths, never lower or drop them.
func TestAgentsMerge(t *testing.T) {
	base := "version: 1\nagents: {approvals: 2, accounts: {\"claude[bot]\": {labels: [claude], paths: [\"src/**\"]}}}\n"
	ext := "version: 1\nextends: acme/policy:aepgate.yml\n"
	tests := []struct {
		name      string
		repo      string
		approvals int
		setting   AgentSetting
	}{
		{"inherits", ext, 2, AgentSetting{Labels: []string{"claude"}, Paths: []string{"src/**"}}},
		{"lowering keeps the base's", ext + "agents: {approvals: 1, accounts: {\"Claude[bot]\": {labels: [ai]}}}\n", 2, AgentSetting{Labels: []string{"claude", "ai"}, Paths: []string{"src/**"}}},
		{"raising", ext + "agents: {approvals: 3}\n", 3, AgentSetting{Labels: []string{"claude"}, Paths: []string{"src/**"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := resolveText(t, base, tt.repo, DefaultMergeRules())
			if err != nil {
				t.Fatal(err)
			}
			if r.Config.AgentApprovals != tt.approvals {
				t.Errorf("agents.approvals = %d, want %d", r.Config.AgentApprovals, tt.approvals)
			}
			if diff := cmp.Diff(tt.setting, r.Config.AgentSettings["claude[bot]"]); diff != "" {
				t.Errorf("claude[bot] (-want +got):\n%s", diff)
			}
			if len(r.Config.AgentSettings) != 1 || !r.Config.IsAgent("claude[bot]") {
				t.Errorf("agents %v, settings %v", r.Config.Agents, r.Config.AgentSettings)
			}
		})
	}
}
