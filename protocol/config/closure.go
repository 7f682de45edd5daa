package config

import "go.yaml.in/yaml/v3"

// Closure says how the App answers a unit or milestone closed without
// evidence, and who makes a certified unit's final closure
// (docs/closure.md).
type Closure struct {
	// Reopen makes the App reopen such an issue (with its comment) instead
	// of only commenting.
	Reopen bool `json:"reopen"`
	// Final is FinalCertified (the default: a certified closure counts,
	// whoever closed the issue) or FinalOwner (craft-rules §6.1: agents end
	// at needs-review; the owner's own closure or `/aep close` makes the
	// unit done).
	Final string `json:"final"`
}

// The values of Closure.Final.
const (
	FinalCertified = "certified"
	FinalOwner     = "owner"
)

// closure decodes the closure mapping into c.
func (d *decoder) closure(v *yaml.Node, field string, c *Closure) {
	d.fields(v, field, fieldSetters{
		"reopen": func(v *yaml.Node, f string) { c.Reopen = d.boolean(v, f) },
		"final": func(v *yaml.Node, f string) {
			s, ok := d.str(v, f)
			if ok && s != FinalCertified && s != FinalOwner {
				d.errorf(v, f, "must be %q or %q, not %q", FinalCertified, FinalOwner, s)
				return
			}
			if ok {
				c.Final = s
			}
		},
	})
}
