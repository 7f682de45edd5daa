package config

import "go.yaml.in/yaml/v3"

// Closure says how the App answers a unit or milestone closed without
// evidence (docs/closure.md).
type Closure struct {
	// Reopen makes the App reopen such an issue (with its comment) instead
	// of only commenting.
	Reopen bool `json:"reopen"`
}

// closure decodes the closure mapping into c.
func (d *decoder) closure(v *yaml.Node, field string, c *Closure) {
	d.fields(v, field, fieldSetters{
		"reopen": func(v *yaml.Node, f string) { c.Reopen = d.boolean(v, f) },
	})
}
