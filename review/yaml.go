package review

import (
	"errors"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/aepgate/aepgate/protocol/yamldoc"
)

// yamlReader reads YAML; off is added to the line numbers it reports.
type yamlReader struct{ off int }

// read reads one YAML document.
func (y yamlReader) read(text string) (*value, error) {
	root, err := yamldoc.Decode([]byte(text), yamldoc.Options{OneDocument: true})
	var syn *yamldoc.SyntaxError
	var extra *yamldoc.ExtraDocumentError
	switch {
	case errors.As(err, &extra), errors.As(err, &syn) && syn.InRest:
		return nil, errors.New("not valid YAML: the block holds more than one document")
	case syn != nil && syn.Line > 0:
		return nil, fmt.Errorf("not valid YAML: line %d: %s", syn.Line+y.off, syn.Message)
	case syn != nil:
		return nil, fmt.Errorf("not valid YAML: %s", syn.Message)
	case err != nil:
		return nil, errors.New("the block is empty")
	}
	return y.value(root, 0)
}

func (y yamlReader) value(n *yaml.Node, depth int) (*value, error) {
	if depth > maxDepth {
		return nil, errors.New("nested too deeply")
	}
	switch n.Kind {
	case yaml.MappingNode:
		return y.mapping(n, depth)
	case yaml.SequenceNode:
		v := &value{kind: kArray}
		for _, c := range n.Content {
			item, err := y.value(c, depth+1)
			if err != nil {
				return nil, err
			}
			v.vals = append(v.vals, item)
		}
		return v, nil
	case yaml.ScalarNode:
		return y.scalar(n)
	case yaml.AliasNode:
		return nil, fmt.Errorf("line %d: YAML aliases are not allowed in an aep-audit block", y.off+n.Line)
	}
	return nil, fmt.Errorf("line %d: unexpected YAML node", y.off+n.Line)
}

func (y yamlReader) mapping(n *yaml.Node, depth int) (*value, error) {
	v := &value{kind: kObject}
	for _, p := range yamldoc.Pairs(n) {
		k := p.Key
		if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" {
			return nil, fmt.Errorf("line %d: a key must be text", y.off+k.Line)
		}
		if p.Repeat {
			return nil, fmt.Errorf("line %d: key %q appears twice", y.off+k.Line, k.Value)
		}
		item, err := y.value(p.Value, depth+1)
		if err != nil {
			return nil, err
		}
		v.keys, v.vals = append(v.keys, k.Value), append(v.vals, item)
	}
	return v, nil
}

func (y yamlReader) scalar(n *yaml.Node) (*value, error) {
	switch n.ShortTag() {
	case "!!str":
		return &value{kind: kString, text: n.Value}, nil
	case "!!int", "!!float":
		return &value{kind: kNumber, text: n.Value}, nil
	case "!!bool":
		return &value{kind: kBool, text: n.Value}, nil
	case "!!null":
		return &value{kind: kNull}, nil
	}
	return nil, fmt.Errorf("line %d: YAML tag %s is not allowed in an aep-audit block", y.off+n.Line, n.ShortTag())
}
