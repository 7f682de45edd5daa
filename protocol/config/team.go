package config

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/login"
)

// Team is a GitHub team named in a list of logins as "@org/team-slug":
// its members count as that list's logins, read live by the App on every
// evaluation (docs/config.md, "Teams").
type Team struct {
	Org, Slug string
}

// String is the team as the config names it.
func (t Team) String() string { return "@" + t.Org + "/" + t.Slug }

// Key names the team whatever the case of its organization: the key of a
// members map (WithMembers).
func (t Team) Key() string { return "@" + strings.ToLower(t.Org) + "/" + t.Slug }

// ParseTeam reports whether s names a team ("@org/slug") and which.
func ParseTeam(s string) (Team, bool) {
	rest, ok := strings.CutPrefix(s, "@")
	if !ok {
		return Team{}, false
	}
	org, slug, ok := strings.Cut(rest, "/")
	return Team{Org: org, Slug: slug}, ok
}

// checkTeam validates a team entry: an organization login and a team slug
// (lower-case letters, digits, hyphens and underscores, as GitHub makes
// them).
func checkTeam(s string) string {
	t, _ := ParseTeam(s)
	if checkLogin(t.Org, false) != "" || t.Slug == "" || len(t.Slug) > 100 {
		return fmt.Sprintf("%q is not a team (@org/team-slug)", s)
	}
	for _, r := range t.Slug {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return fmt.Sprintf("%q is not a team (@org/team-slug; the slug is lower-case letters, digits, - and _)", s)
		}
	}
	return ""
}

// Teams are the teams named in the owners, coordinators, auditors and
// agents lists, path owners and CODEOWNERS lines included, each once.
func (c *Config) Teams() []Team {
	var out []Team
	for _, list := range append(c.pathOwnerLists(), c.Coordinators, c.Auditors, c.Agents) {
		for _, s := range list {
			if t, ok := ParseTeam(s); ok && !containsTeam(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

func containsTeam(ts []Team, t Team) bool {
	for _, o := range ts {
		if login.Equal(o.Org, t.Org) && o.Slug == t.Slug {
			return true
		}
	}
	return false
}

// WithMembers is a copy of c whose owners (path owners and CODEOWNERS
// lines included), coordinators, auditors and agents name people only: each team is replaced by its members (members, by team as
// Key names it; a team missing from members has none), each login once.
// c is unchanged.
func (c *Config) WithMembers(members map[string][]string) *Config {
	out := *c
	expand := func(list []string) []string {
		var logins []string
		add := func(s string) {
			if !login.In(logins, s) {
				logins = append(logins, s)
			}
		}
		for _, s := range list {
			t, ok := ParseTeam(s)
			if !ok {
				add(s)
				continue
			}
			for _, m := range members[t.Key()] {
				add(m)
			}
		}
		return logins
	}
	out.Owners, out.Coordinators, out.Auditors = expand(c.Owners), expand(c.Coordinators), expand(c.Auditors)
	out.Agents = expand(c.Agents)
	out.PathOwners, out.CodeOwners = c.expandPaths(expand)
	return &out
}
