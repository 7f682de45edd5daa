package config

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/aepgate/aepgate/protocol/yamldoc"
)

// PathOwner is one entry of an owners map: the owners (logins or teams)
// who approve changes to the paths Pattern matches (MatchPath's globs).
type PathOwner struct {
	Pattern string   `json:"pattern"`
	Owners  []string `json:"owners"`
	// Line is the entry's line in the file (0 when not from a file).
	Line int `json:"-"`
}

// OwnersFromCodeOwners is the one source an owners map may name with
// "from": GitHub's CODEOWNERS file on the default branch.
const OwnersFromCodeOwners = "CODEOWNERS"

// FallbackPattern is the owners map's entry for the repository's owners:
// it matches every path no other pattern matches.
const FallbackPattern = "*"

// owners decodes the owners key: a flat list (the repository's owners,
// who also own every path), a map of path patterns to owners with a "*"
// entry, or {from: CODEOWNERS}.
func (d *decoder) owners(v *yaml.Node, field string, c *Config) {
	switch v.Kind {
	case yaml.SequenceNode:
		c.Owners = d.logins(v, field, false)
	case yaml.MappingNode:
		d.ownersMap(v, field, c)
	default:
		d.errorf(v, field, "must be a list of owners, a mapping of path patterns to owners, or {from: CODEOWNERS}; not %s", kindName(v))
	}
}

// ownersMap decodes an owners mapping into c.Owners ("*") and
// c.PathOwners (every other pattern, in file order), or c.OwnersFrom.
func (d *decoder) ownersMap(v *yaml.Node, field string, c *Config) {
	pairs := yamldoc.Pairs(v)
	for _, p := range pairs {
		if p.Key.Kind == yaml.ScalarNode && p.Key.Value == "from" {
			d.ownersFrom(p, len(pairs), joinField(field, "from"), c)
			return
		}
	}
	fallback := false
	for _, p := range pairs {
		pattern, val, f, ok := d.ownersEntry(p, field)
		if !ok {
			continue
		}
		owners := d.logins(val, f, false)
		if val.Kind == yaml.SequenceNode && len(val.Content) == 0 {
			d.errorf(val, f, "must name at least one owner")
		}
		if pattern == FallbackPattern {
			c.Owners, fallback = owners, true
			continue
		}
		c.PathOwners = append(c.PathOwners, PathOwner{Pattern: pattern, Owners: owners, Line: p.Key.Line})
	}
	if !fallback {
		d.errorf(v, field, `needs a "*" entry: the repository's owners, who decide gates, HOLD and RESUME and approve every path no other pattern matches (quote it: "*": [login])`)
	}
}

// ownersEntry checks one pattern of an owners map: its key, its value's
// node and its field path ("owners[docs/**]"); ok is false after an error
// that leaves nothing to decode.
func (d *decoder) ownersEntry(p yamldoc.Pair, field string) (string, *yaml.Node, string, bool) {
	k, val := p.Key, p.Value
	if k.Kind != yaml.ScalarNode {
		d.errorf(k, field, "keys must be path patterns, not %s (quote a pattern that starts with *)", kindName(k))
		return "", nil, "", false
	}
	f := fmt.Sprintf("%s[%s]", field, k.Value)
	switch {
	case p.Repeat:
		d.errorf(k, f, "duplicate pattern")
		return "", nil, "", false
	case val.Kind == yaml.AliasNode:
		d.errorf(val, f, "YAML aliases are not supported; write the value out")
		return "", nil, "", false
	case val.Kind == yaml.ScalarNode && val.Tag == "!!null":
		d.errorf(val, f, "must name at least one owner")
		return "", nil, "", false
	}
	if k.Value != FallbackPattern {
		d.check(k, f, d.pathRule(k.Value, true))
	}
	return k.Value, val, f, true
}

// ownersFrom decodes {from: CODEOWNERS}, which stands alone.
func (d *decoder) ownersFrom(p yamldoc.Pair, entries int, field string, c *Config) {
	if entries != 1 {
		d.errorf(p.Key, field, "stands alone: with owners: {from: CODEOWNERS} the file names every owner (its \"*\" line the repository's)")
		return
	}
	if s, ok := d.str(p.Value, field); ok {
		if s != OwnersFromCodeOwners {
			d.errorf(p.Value, field, "must be %q, not %q", OwnersFromCodeOwners, s)
			return
		}
		c.OwnersFrom = s
	}
}
