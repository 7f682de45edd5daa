package config

import (
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/aepgate/aepgate/protocol/gate"
	"github.com/aepgate/aepgate/protocol/yamldoc"
)

// GateRule is what answering a gate of one category takes.
type GateRule struct {
	// Approvals is how many distinct owners must answer a gate of the
	// category with one choice before the gate resolves (protocol/gate
	// counts them with protocol/approval: one person answering twice
	// counts once). The safe default needs one owner.
	Approvals int `json:"approvals"`
}

// maxApprovals bounds gates.<category>.approvals.
const maxApprovals = 10

// gates decodes the gates mapping: owner-only gate categories
// (craft-rules §3.2) to their rules, each naming its approvals.
func (d *decoder) gates(v *yaml.Node, field string) map[string]GateRule {
	if v.Kind != yaml.MappingNode {
		d.errorf(v, field, "must be a mapping of gate categories, not %s", kindName(v))
		return nil
	}
	out := map[string]GateRule{}
	for _, p := range yamldoc.Pairs(v) {
		f := joinField(field, p.Key.Value)
		switch {
		case p.Key.Kind != yaml.ScalarNode || !gate.IsOwnerOnlyCategory(p.Key.Value):
			d.errorf(p.Key, f, "%q is not an owner-only gate category (expected one of %s)", p.Key.Value, strings.Join(gate.OwnerOnlyCategories(), ", "))
			continue
		case p.Repeat:
			d.errorf(p.Key, f, "duplicate gate category")
			continue
		case p.Key.Value == holdCategory:
			d.errorf(p.Key, f, "a HOLD is lifted by one owner's RESUME; approvals apply to the other owner-only categories")
			continue
		}
		out[p.Key.Value] = d.gateRule(p.Value, f)
	}
	return out
}

// gateRule decodes one category's rule; approvals is required.
func (d *decoder) gateRule(v *yaml.Node, field string) GateRule {
	var r GateRule
	d.fields(v, field, fieldSetters{
		"approvals": func(v *yaml.Node, f string) { r.Approvals = d.bounded(v, f, 1, maxApprovals) },
	})
	if r.Approvals == 0 && v.Kind == yaml.MappingNode {
		d.errorf(v, joinField(field, "approvals"), "required: how many distinct owners must answer (1 to %d)", maxApprovals)
	}
	return r
}

// holdCategory is the HOLDs' category, which approvals do not apply to.
const holdCategory = "explicit-hold"

// GateApprovals maps each category of the gates mapping to how many
// distinct owners must answer its gates (gate.Log.Approvals).
func (c *Config) GateApprovals() map[string]int {
	out := make(map[string]int, len(c.Gates))
	for cat := range c.Gates {
		out[cat] = c.ApprovalsFor(cat)
	}
	return out
}

// ApprovalsFor is how many distinct owners must answer a gate of category:
// its gates entry, else 1.
func (c *Config) ApprovalsFor(category string) int {
	if r, ok := c.Gates[category]; ok && r.Approvals > 0 {
		return r.Approvals
	}
	return 1
}

// mergeGates: the base's categories and the repository's, each at the
// larger number of approvals (a repository may only ask for more).
func mergeGates(m *merger, key string) {
	b, r := m.base.Config.Gates, m.repo.Config.Gates
	out, raised := maps.Clone(b), false
	for _, cat := range slices.Sorted(maps.Keys(r)) {
		if r[cat].Approvals > b[cat].Approvals {
			if out == nil {
				out = map[string]GateRule{}
			}
			out[cat], raised = r[cat], true
		}
	}
	m.out.Gates = out
	m.from(key, len(b) > 0, raised)
}
