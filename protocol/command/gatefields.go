package command

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/aepgate/aepgate/protocol/gate"
	"github.com/aepgate/aepgate/protocol/yamldoc"
)

// blockDecoder decodes one aep-gate block, collecting its problems.
type blockDecoder struct {
	f     fence
	probs []error
	safe  *yaml.Node // the safe_default value, checked against the choices last
}

// fail records a problem at node n (nil: the block's first line).
func (d *blockDecoder) fail(n *yaml.Node, field, format string, args ...any) {
	line := d.f.open
	if n != nil {
		line = d.f.body0 + n.Line - 1
	}
	d.probs = append(d.probs, &BlockError{Block: d.f.open, Line: line, Field: field, Message: fmt.Sprintf(format, args...)})
}

// decodeBlock decodes a block's YAML mapping field by field.
func decodeBlock(f fence) (GateSpec, []error) {
	d := &blockDecoder{f: f}
	spec := GateSpec{Line: f.open, Scope: gate.ScopeWorkUnit}
	m := d.mapping(strings.Join(f.body, "\n"))
	if m == nil {
		return GateSpec{}, d.probs
	}
	seen := map[string]bool{}
	for _, p := range yamldoc.Pairs(m) {
		if p.Repeat {
			d.fail(p.Key, strconv.Quote(p.Key.Value), "appears twice")
			continue
		}
		seen[p.Key.Value] = true
		d.field(&spec, p.Key, p.Value)
	}
	for _, req := range []string{"question", "choices", "category", "effect"} {
		if !seen[req] {
			d.fail(nil, req, "is required")
		}
	}
	if spec.SafeDefault != "" && len(spec.Choices) > 0 && !contains(spec.Choices, spec.SafeDefault) {
		d.fail(d.safe, "safe_default", "%q is not one of the choices (%s)", spec.SafeDefault, quoteAll(spec.Choices))
	}
	if len(d.probs) > 0 {
		return GateSpec{}, d.probs
	}
	return spec, nil
}

// field decodes one key into spec.
func (d *blockDecoder) field(spec *GateSpec, k, v *yaml.Node) {
	switch k.Value {
	case "question":
		spec.Question, _ = d.text(v, k.Value, MaxText)
	case "choices":
		spec.Choices = d.choices(v)
	case "category":
		spec.Category = d.enum(v, k.Value, gate.IsOwnerOnlyCategory, gate.OwnerOnlyCategories())
	case "effect":
		spec.Effect = d.effect(v)
	case "scope":
		spec.Scope = d.enum(v, k.Value, gate.IsScope, gate.Scopes())
	case "id":
		spec.ID = d.id(v)
	case "safe_default":
		d.safe = v
		spec.SafeDefault, _ = d.text(v, k.Value, MaxChoice)
	case "decision_key":
		if s, ok := d.text(v, k.Value, MaxText); ok {
			spec.DecisionKey = &s
		}
	default:
		d.fail(k, strconv.Quote(k.Value), "is not a field of an aep-gate block (expected question, choices, category, effect, id, scope, safe_default, decision_key)")
	}
}

// mapping parses text as one YAML mapping; nil when it is not one.
func (d *blockDecoder) mapping(text string) *yaml.Node {
	root, err := yamldoc.Decode([]byte(text), yamldoc.Options{})
	var syn *yamldoc.SyntaxError
	switch {
	case errors.As(err, &syn):
		d.yamlError(syn)
		return nil
	case err != nil:
		d.fail(nil, "", "the aep-gate block is empty")
		return nil
	case root.Kind == yaml.MappingNode:
		return root
	}
	d.fail(root, "", "an aep-gate block must be a YAML mapping of fields")
	return nil
}

// yamlError positions a YAML syntax error on the comment's line.
func (d *blockDecoder) yamlError(e *yamldoc.SyntaxError) {
	line := d.f.open
	if e.Line > 0 {
		line = d.f.body0 + e.Line - 1
	}
	d.probs = append(d.probs, &BlockError{Block: d.f.open, Line: line, Message: "not valid YAML: " + e.Message})
}

// text decodes a non-empty scalar of at most max characters without
// control characters.
func (d *blockDecoder) text(n *yaml.Node, field string, max int) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() == "!!null" {
		d.fail(n, field, "must be text")
		return "", false
	}
	s := strings.TrimSpace(n.Value)
	switch {
	case s == "":
		d.fail(n, field, "must not be empty")
	case len([]rune(s)) > max:
		d.fail(n, field, "is %d characters long; at most %d allowed", len([]rune(s)), max)
	case strings.IndexFunc(s, func(r rune) bool { return r != '\t' && r != '\n' && unicode.IsControl(r) }) >= 0:
		d.fail(n, field, "contains a control character")
	default:
		return s, true
	}
	return "", false
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
