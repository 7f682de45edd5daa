package review

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// yamlReader reads YAML; off is added to the line numbers it reports.
type yamlReader struct{ off int }

// read reads one YAML document.
func (y yamlReader) read(text string) (*value, error) {
	d := yaml.NewDecoder(bytes.NewReader([]byte(text)))
	var doc yaml.Node
	if err := d.Decode(&doc); err != nil {
		if err == io.EOF {
			return nil, errors.New("the block is empty")
		}
		return nil, fmt.Errorf("not valid YAML: %s", y.shift(strings.TrimPrefix(err.Error(), "yaml: ")))
	}
	var more yaml.Node
	if err := d.Decode(&more); err != io.EOF {
		return nil, errors.New("not valid YAML: the block holds more than one document")
	}
	if len(doc.Content) == 0 {
		return nil, errors.New("the block is empty")
	}
	return y.value(doc.Content[0], 0)
}

// yamlLine matches the line number of a YAML error message.
var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^line (\d+):`) })

// shift adds off to the line number a YAML error message starts with.
func (y yamlReader) shift(msg string) string {
	m := yamlLine().FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	n, _ := strconv.Atoi(m[1])
	return fmt.Sprintf("line %d:%s", n+y.off, msg[len(m[0]):])
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
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" {
			return nil, fmt.Errorf("line %d: a key must be text", y.off+k.Line)
		}
		if v.has(k.Value) {
			return nil, fmt.Errorf("line %d: key %q appears twice", y.off+k.Line, k.Value)
		}
		item, err := y.value(n.Content[i+1], depth+1)
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
