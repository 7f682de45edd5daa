package command

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/aepgate/aepgate/protocol/gate"
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
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if seen[k.Value] {
			d.fail(k, strconv.Quote(k.Value), "appears twice")
			continue
		}
		seen[k.Value] = true
		d.field(&spec, k, v)
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
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		d.yamlError(err)
		return nil
	}
	if len(doc.Content) == 0 {
		d.fail(nil, "", "the aep-gate block is empty")
		return nil
	}
	if m := doc.Content[0]; m.Kind == yaml.MappingNode {
		return m
	}
	d.fail(doc.Content[0], "", "an aep-gate block must be a YAML mapping of fields")
	return nil
}

var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): `) })

// yamlError positions a YAML syntax error on the comment's line.
func (d *blockDecoder) yamlError(err error) {
	msg := err.Error()
	line := d.f.open
	if m := yamlLine().FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		line, msg = d.f.body0+n-1, msg[len(m[0]):]
	}
	d.probs = append(d.probs, &BlockError{Block: d.f.open, Line: line, Message: "not valid YAML: " + strings.TrimPrefix(msg, "yaml: ")})
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
