package config

import (
	"fmt"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/aepgate/aepgate/protocol/yamldoc"
)

// IsAgent reports whether login is a listed agent (config key agents):
// an account that acts for whoever instructs it, such as a coding agent's
// Bot (copilot-swe-agent[bot]) or a user account that runs agents. Logins
// are compared as GitHub compares them (login.Equal). Teams count once the
// App has replaced them by their members (WithMembers).
func (c *Config) IsAgent(login string) bool { return login != "" && hasLogin(c.Agents, login) }

// AgentsAmong are the listed agents among logins (a pull request's author
// and its commits' authors and committers), each once, in the order given.
func (c *Config) AgentsAmong(logins ...string) []string {
	var out []string
	for _, l := range logins {
		if c.IsAgent(l) && !hasLogin(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// AgentSetting is one agent's entry under agents.accounts.
type AgentSetting struct {
	// Triggers are the words of a comment, review or review comment that
	// instruct the agent ("@claude", "/codex"); none: the defaults
	// protocol/instructor knows for its login.
	Triggers []string `json:"triggers,omitempty"`
	// Labels are the labels that start it ("jules").
	Labels []string `json:"labels,omitempty"`
	// Paths are the files it may not change without an owner's gate
	// (path patterns); none: DefaultAgentPaths.
	Paths []string `json:"paths,omitempty"`
}

// maxAgentApprovals bounds agents.approvals.
const maxAgentApprovals = 10

// AgentApprovalsNeeded is agents.approvals, 1 when unset.
func (c *Config) AgentApprovalsNeeded() int { return max(c.AgentApprovals, 1) }

// DefaultAgentPaths are the paths an agent may not change without an
// owner's gate when its entry names none: the workflows, the repository's
// aepgate policy and the default contract paths (the code owners, agents'
// instructions and MCP configs).
func DefaultAgentPaths() []string {
	return append([]string{".github/workflows/**", ".github/aepgate.yml"}, DefaultContractPaths()...)
}

// AgentSettingsOf is agent's entry under agents.accounts (compared as
// GitHub compares logins), its paths defaulted to DefaultAgentPaths.
func (c *Config) AgentSettingsOf(agent string) AgentSetting {
	var s AgentSetting
	for k, v := range c.AgentSettings {
		if hasLogin([]string{k}, agent) {
			s = v
			break
		}
	}
	if len(s.Paths) == 0 {
		s.Paths = DefaultAgentPaths()
	}
	return s
}

// agents decodes the agents key: a list of logins, or a mapping
// {accounts: {login: {triggers, labels, paths}}, approvals: N}.
func (d *decoder) agents(v *yaml.Node, field string, c *Config) {
	switch v.Kind {
	case yaml.SequenceNode:
		c.Agents = d.logins(v, field, true)
	case yaml.MappingNode:
		d.fields(v, field, fieldSetters{
			"accounts":  func(v *yaml.Node, f string) { d.agentAccounts(v, f, c) },
			"approvals": func(v *yaml.Node, f string) { c.AgentApprovals = d.bounded(v, f, 1, maxAgentApprovals) },
		})
	default:
		d.errorf(v, field, "must be a list of logins or a mapping {accounts: {login: {triggers, labels, paths}}, approvals: N}; not %s", kindName(v))
	}
}

// agentAccounts decodes agents.accounts: each key a login (bots allowed),
// each value its settings (an empty mapping or null: the defaults).
func (d *decoder) agentAccounts(v *yaml.Node, field string, c *Config) {
	if v.Kind != yaml.MappingNode {
		d.errorf(v, field, "must be a mapping of logins to {triggers, labels, paths}, not %s", kindName(v))
		return
	}
	c.AgentSettings = map[string]AgentSetting{}
	for _, p := range yamldoc.Pairs(v) {
		f := field + "[" + p.Key.Value + "]"
		login, ok := d.str(p.Key, f)
		if !ok {
			continue
		}
		if msg := checkLogin(login, true); msg != "" || p.Repeat || hasLogin(c.Agents, login) {
			d.errorf(p.Key, f, "%s", firstOf(msg, fmt.Sprintf("duplicate login %q", login)))
			continue
		}
		c.Agents = append(c.Agents, login)
		c.AgentSettings[login] = d.agentSetting(p.Value, f)
	}
}

func (d *decoder) agentSetting(v *yaml.Node, field string) AgentSetting {
	var s AgentSetting
	if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return s
	}
	d.fields(v, field, fieldSetters{
		"triggers": func(v *yaml.Node, f string) {
			s.Triggers = d.list(v, f, func(item *yaml.Node, f, w string) { d.check(item, f, checkTrigger(w)) })
		},
		"labels": func(v *yaml.Node, f string) { s.Labels = d.names(v, f) },
		"paths":  func(v *yaml.Node, f string) { s.Paths = d.paths(v, f, true) },
	})
	return s
}

// checkTrigger is the error for a trigger word that is not "@" or "/"
// followed by a name (letters, digits, "-", "_", "."), or "".
func checkTrigger(w string) string {
	if len(w) < 2 || (w[0] != '@' && w[0] != '/') {
		return fmt.Sprintf("trigger %q must be a mention (@name) or a command (/name)", w)
	}
	for _, r := range w[1:] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return fmt.Sprintf("trigger %q must be a mention (@name) or a command (/name): letters, digits, -, _ and . only after the first character", w)
		}
	}
	return ""
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// mergeAgentApprovals: the larger of the base's and the repository's
// agents.approvals (a repository may only ask for more).
func mergeAgentApprovals(m *merger, key string) {
	b, r := m.base.Config.AgentApprovals, m.repo.Config.AgentApprovals
	m.out.AgentApprovals = max(b, r)
	m.agentSource(key, "agents.approvals", r > b)
}

// agentSource records the source of key, a form of the YAML key yamlKey:
// the repository when it raised or added (repo), else whichever file sets
// yamlKey, the base first, else the default.
func (m *merger) agentSource(key, yamlKey string, repo bool) {
	switch {
	case repo && m.base.setsUnder(yamlKey):
		m.src[key] = FromBoth
	case repo:
		m.src[key] = FromRepository
	case m.base.setsUnder(yamlKey):
		m.src[key] = FromBase
	default:
		m.src[key] = FromDefault
	}
}

// mergeAgentSettings: per agent, the union of the base's and the
// repository's triggers, labels and paths (each only adds instructors or
// denied paths).
func mergeAgentSettings(m *merger, key string) {
	b, r := m.base.Config.AgentSettings, m.repo.Config.AgentSettings
	out, added := map[string]AgentSetting{}, false
	for k, v := range b {
		out[k] = v
	}
	for k, v := range r {
		for bk := range b {
			if hasLogin([]string{bk}, k) {
				k = bk // the base's spelling of the login
			}
		}
		base, had := out[k]
		merged := AgentSetting{
			Triggers: unionFold(base.Triggers, v.Triggers),
			Labels:   unionFold(base.Labels, v.Labels),
			Paths:    unionFold(base.Paths, v.Paths),
		}
		if !had || len(merged.Triggers)+len(merged.Labels)+len(merged.Paths) > len(base.Triggers)+len(base.Labels)+len(base.Paths) {
			added = true
		}
		out[k] = merged
	}
	if len(out) == 0 {
		out = nil
	}
	m.out.AgentSettings = out
	m.agentSource(key, "agents.accounts", added)
}

func unionFold(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !containsFold(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// agentsRule merges agents as union does; a repository's mapping form
// without accounts ({approvals: N}) lists no agent and drops none.
func agentsRule() MergeRule {
	r := union("agents", func(c *Config) *[]string { return &c.Agents })
	merge := r.merge
	r.merge = func(m *merger, key string) {
		if _, set := m.repo.sets(key); set && m.repo.Config.AgentSettings == nil && m.repo.setsUnder("agents.approvals") {
			m.out.Agents = slices.Clone(m.base.Config.Agents)
			m.from(key, len(m.base.Config.Agents) > 0, false)
			return
		}
		merge(m, key)
	}
	return r
}
