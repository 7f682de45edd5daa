package workunit

import (
	"slices"

	"go.yaml.in/yaml/v3"
)

// Risk is a story's risk contribution or an increment's risk tier.
type Risk string

// The risk levels, in increasing order.
const (
	RiskLow    Risk = "low"
	RiskMedium Risk = "medium"
	RiskHigh   Risk = "high"
)

// rank orders risks; an unknown risk ranks below low.
func (r Risk) rank() int { return slices.Index([]Risk{RiskLow, RiskMedium, RiskHigh}, r) }

// Class is a story's deliverable class.
type Class string

// The deliverable classes (craft-rules §5.3).
const (
	ClassProduct      Class = "product"
	ClassContract     Class = "contract"
	ClassAcceptance   Class = "acceptance"
	ClassHousekeeping Class = "housekeeping"
)

// Contract is a work unit's contract: the first fenced yaml block of its
// issue body.
type Contract struct {
	Goal       string
	Acceptance []string
	NonGoals   []string
	Risk       Risk
	Class      Class
	// DependsOn lists same-repository issue numbers this unit needs closed first.
	DependsOn []int
}

// ParseContract reads the contract from an issue body. It returns every
// problem found, positioned on the body's lines; the contract is valid when
// the problem list is empty.
func ParseContract(body string) (Contract, []Problem) {
	b, ok := firstYAML(body)
	if !ok {
		return Contract{}, []Problem{{Message: "the issue body has no fenced yaml block (```yaml … ```) with the contract: goal, acceptance, non_goals, risk, class"}}
	}
	var c Contract
	d, seen, ok := decodeFields(b, func(d *fieldDecoder, k, v *yaml.Node) {
		switch k.Value {
		case "goal":
			c.Goal, _ = d.text(v, "goal")
		case "acceptance":
			c.Acceptance, _ = d.list(v, "acceptance")
		case "non_goals":
			c.NonGoals, _ = d.list(v, "non_goals")
		case "risk":
			r, _ := d.enum(v, "risk", "low", "medium", "high")
			c.Risk = Risk(r)
		case "class":
			cl, _ := d.enum(v, "class", "product", "contract", "acceptance", "housekeeping")
			c.Class = Class(cl)
		case "depends_on":
			c.DependsOn = d.issueRefs(v, "depends_on")
		default:
			d.fail(k, k.Value, "unknown field (allowed: goal, acceptance, non_goals, risk, class, depends_on)")
		}
	})
	if !ok {
		return Contract{}, d.problems
	}
	for _, f := range []string{"goal", "acceptance", "non_goals", "risk", "class"} {
		if !seen[f] {
			d.problems = append(d.problems, Problem{Line: b.line - 1, Field: f, Message: "is required"})
		}
	}
	return c, d.problems
}
