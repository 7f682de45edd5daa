package config

import (
	"go.yaml.in/yaml/v3"

	"github.com/aepgate/aepgate/protocol/login"
	"github.com/aepgate/aepgate/protocol/yamldoc"
)

// CoordinatorScope is the one scope of a coordinators map: the whole
// repository.
const CoordinatorScope = "*"

// coordinators decodes the coordinators key: a flat list (every listed
// login coordinates), or a scope map naming the one authoritative
// coordinator of each scope (craft-rules: exactly one authoritative
// coordinator per scope). The only scope is "*", the repository.
func (d *decoder) coordinators(v *yaml.Node, field string, c *Config) {
	switch v.Kind {
	case yaml.SequenceNode:
		c.Coordinators = d.logins(v, field, true)
	case yaml.MappingNode:
		d.coordinatorMap(v, field, c)
	default:
		d.errorf(v, field, `must be a list of coordinators or a scope map {"*": [login]}; not %s`, kindName(v))
	}
}

// coordinatorMap decodes {"*": [login]} into c.Coordinator and
// c.Coordinators.
func (d *decoder) coordinatorMap(v *yaml.Node, field string, c *Config) {
	pairs := yamldoc.Pairs(v)
	if len(pairs) == 0 {
		d.errorf(v, field, `a scope map needs the "*" entry: {"*": [login]}, the repository's one authoritative coordinator`)
		return
	}
	for _, p := range pairs {
		f := field + "[" + p.Key.Value + "]"
		switch {
		case p.Key.Kind != yaml.ScalarNode || p.Key.Value != CoordinatorScope:
			d.errorf(p.Key, f, `unknown scope %q; the only scope is "*" (the repository; quote it)`, p.Key.Value)
		case p.Repeat:
			d.errorf(p.Key, f, "duplicate scope")
		case p.Value.Kind != yaml.SequenceNode:
			d.errorf(p.Value, f, "must be a list of one login, not %s", kindName(p.Value))
		default:
			d.scopeCoordinator(p.Value, f, c)
		}
	}
}

// scopeCoordinator decodes the one login of a scope.
func (d *decoder) scopeCoordinator(v *yaml.Node, f string, c *Config) {
	logins := d.logins(v, f, true)
	if len(v.Content) != 1 {
		d.errorf(v, f, "must name exactly one authoritative coordinator (craft allows one per scope), not %d", len(v.Content))
		return
	}
	if len(logins) != 1 {
		return
	}
	if _, team := ParseTeam(logins[0]); team {
		d.errorf(v.Content[0], f, "must be one login, not the team %s: a scope has one authoritative coordinator", logins[0])
		return
	}
	c.Coordinator, c.Coordinators = logins[0], logins
	if d.set != nil {
		d.set["coordinator"] = Pos{Line: v.Line, Column: v.Column}
	}
}

// mergeCoordinator: a base's authoritative coordinator stays; a repository
// naming another is refused; without one in the base, the repository's.
func mergeCoordinator(m *merger, key string) {
	b, r := m.base.Config.Coordinator, m.repo.Config.Coordinator
	switch {
	case b != "" && r != "" && !login.Equal(b, r):
		m.refuse(key, "%q differs from the inherited authoritative coordinator %q of %s; a repository may not change it", r, b, m.base.Name)
		m.out.Coordinator = b
	case b != "":
		m.out.Coordinator = b
	default:
		m.out.Coordinator = r
	}
	m.from(key, b != "", b == "" && r != "")
}
