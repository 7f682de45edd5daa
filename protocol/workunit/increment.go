package workunit

import "go.yaml.in/yaml/v3"

// IncrementSpec is the optional fenced yaml block of a milestone
// description: what the increment demonstrates, its risk tier and what it
// leaves out.
type IncrementSpec struct {
	Demonstration string
	// Risk is the declared risk tier; empty when the description declares none.
	Risk     Risk
	NonGoals []string
}

// ParseIncrement reads the optional yaml block of a milestone description.
// A description without a yaml block is valid and yields the zero spec.
func ParseIncrement(description string) (IncrementSpec, []Problem) {
	b, ok := firstYAML(description)
	if !ok {
		return IncrementSpec{}, nil
	}
	var s IncrementSpec
	d, _, ok := decodeFields(b, func(d *fieldDecoder, k, v *yaml.Node) {
		switch k.Value {
		case "demonstration":
			s.Demonstration, _ = d.text(v, "demonstration")
		case "risk":
			r, _ := d.enum(v, "risk", "low", "medium", "high")
			s.Risk = Risk(r)
		case "non_goals":
			s.NonGoals, _ = d.list(v, "non_goals")
		default:
			d.fail(k, k.Value, "unknown field (allowed: demonstration, risk, non_goals)")
		}
	})
	if !ok {
		return IncrementSpec{}, d.problems
	}
	return s, d.problems
}
