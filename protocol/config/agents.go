package config

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
