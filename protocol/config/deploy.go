package config

import (
	"go.yaml.in/yaml/v3"

	"github.com/aepgate/aepgate/protocol/yamldoc"
)

// Deploy says how the App answers the deployment protection rule of each
// GitHub environment it is enabled on (docs/deploy.md).
type Deploy struct {
	// Environments maps an environment's name, as GitHub spells it, to its
	// rule. An environment not listed is rejected: the App never approves
	// a deployment it was not told how to judge.
	Environments map[string]Environment `json:"environments"`
}

// Environment is one environment's deployment rule.
type Environment struct {
	// Require is what the deployed commit must be: RequireCertified,
	// RequireIncrement or RequireNone.
	Require string `json:"require"`
	// OwnerGate makes every deployment wait for the owner's answer to a
	// gate opened on the control issue.
	OwnerGate bool `json:"owner_gate"`
}

// The values of deploy.environments.<name>.require.
const (
	// RequireCertified: the commit is the merge commit of a unit with a
	// valid aepgate/certificate written by this App.
	RequireCertified = "certified"
	// RequireIncrement: the commit is the integrated candidate of a
	// complete increment (aepgate/increment).
	RequireIncrement = "increment"
	// RequireNone: any commit (the owner gate, when set, still applies).
	RequireNone = "none"
)

// maxEnvironments bounds deploy.environments.
const maxEnvironments = 50

// deploy decodes the deploy mapping into p.
func (d *decoder) deploy(v *yaml.Node, field string, p *Deploy) {
	d.fields(v, field, fieldSetters{
		"environments": func(v *yaml.Node, f string) { p.Environments = d.environments(v, f) },
	})
}

// environments decodes deploy.environments: a mapping of environment
// names to rules, every rule naming what it requires.
func (d *decoder) environments(v *yaml.Node, field string) map[string]Environment {
	if v.Kind != yaml.MappingNode {
		d.errorf(v, field, "must be a mapping of environment names, not %s", kindName(v))
		return nil
	}
	out := map[string]Environment{}
	for _, p := range yamldoc.Pairs(v) {
		if p.Key.Kind != yaml.ScalarNode || p.Key.Value == "" {
			d.errorf(p.Key, field, "environment names must be plain names, not %s", kindName(p.Key))
			continue
		}
		f := joinField(field, p.Key.Value)
		if p.Repeat {
			d.errorf(p.Key, f, "duplicate environment")
			continue
		}
		out[p.Key.Value] = d.environment(p.Value, f)
	}
	if len(out) > maxEnvironments {
		d.errorf(v, field, "lists %d environments; at most %d", len(out), maxEnvironments)
	}
	return out
}

// environment decodes one environment's rule; require is required.
func (d *decoder) environment(v *yaml.Node, field string) Environment {
	var e Environment
	d.fields(v, field, fieldSetters{
		"require": func(v *yaml.Node, f string) {
			if s, ok := d.str(v, f); ok {
				e.Require = s
				d.check(v, f, checkRequire(s))
			}
		},
		"owner_gate": func(v *yaml.Node, f string) { e.OwnerGate = d.boolean(v, f) },
	})
	if e.Require == "" && v.Kind == yaml.MappingNode {
		d.errorf(v, joinField(field, "require"), "required: one of certified, increment, none")
	}
	return e
}

// checkRequire says what is wrong with a require value, "" when nothing.
func checkRequire(s string) string {
	switch s {
	case RequireCertified, RequireIncrement, RequireNone:
		return ""
	}
	return "must be one of certified, increment, none, not \"" + s + "\""
}
