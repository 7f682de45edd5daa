package workunit

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
	pairs, probs := mapping(b.text, b.line)
	if probs != nil {
		return IncrementSpec{}, probs
	}
	d := &fieldDecoder{base: b.line}
	var s IncrementSpec
	seen := map[string]bool{}
	for _, kv := range pairs {
		k, v := kv[0], kv[1]
		if seen[k.Value] {
			d.fail(k, k.Value, "appears twice")
			continue
		}
		seen[k.Value] = true
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
	}
	return s, d.problems
}
