package review

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// kind is the type of a decoded value.
type kind int

const (
	kNull kind = iota
	kString
	kNumber
	kBool
	kObject
	kArray
)

func (k kind) String() string {
	return [...]string{"null", "text", "a number", "true or false", "an object", "a list"}[k]
}

// value is a JSON or YAML value as the strict decoder reads it.
type value struct {
	kind kind
	text string   // a string, or a number as written
	keys []string // an object's keys, in order
	vals []*value // an object's values (parallel to keys) or a list's items
}

// maxDepth bounds nesting; an audit block is three levels deep.
const maxDepth = 16

// readTree reads a block: JSON when its first non-space character is "{"
// or "[", YAML otherwise. A repeated key, a YAML alias, anchor-merge or custom tag
// and a second document are refused.
// YAML problems name the line counting the block's first line as first.
func readTree(text string, first int) (*value, error) {
	if t := strings.TrimSpace(text); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		return readJSON(t)
	}
	return yamlReader{off: first - 1}.read(text)
}

// readJSON reads one JSON value and nothing after it.
func readJSON(text string) (*value, error) {
	d := json.NewDecoder(strings.NewReader(text))
	d.UseNumber()
	v, err := jsonValue(d, 0)
	if err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("not valid JSON: text after the value")
	}
	return v, nil
}

func jsonValue(d *json.Decoder, depth int) (*value, error) {
	if depth > maxDepth {
		return nil, errors.New("nested too deeply")
	}
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			return jsonArray(d, depth)
		}
		if t == '{' {
			return jsonObject(d, depth)
		}
		return nil, fmt.Errorf("unexpected %q", t)
	case string:
		return &value{kind: kString, text: t}, nil
	case json.Number:
		return &value{kind: kNumber, text: t.String()}, nil
	case bool:
		return &value{kind: kBool, text: fmt.Sprint(t)}, nil
	}
	return &value{kind: kNull}, nil
}

func jsonArray(d *json.Decoder, depth int) (*value, error) {
	v := &value{kind: kArray}
	for d.More() {
		item, err := jsonValue(d, depth+1)
		if err != nil {
			return nil, err
		}
		v.vals = append(v.vals, item)
	}
	_, err := d.Token()
	return v, err
}

func jsonObject(d *json.Decoder, depth int) (*value, error) {
	v := &value{kind: kObject}
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		if v.has(key) {
			return nil, fmt.Errorf("key %q appears twice", key)
		}
		item, err := jsonValue(d, depth+1)
		if err != nil {
			return nil, err
		}
		v.keys, v.vals = append(v.keys, key), append(v.vals, item)
	}
	_, err := d.Token()
	return v, err
}

func (v *value) has(key string) bool {
	for _, k := range v.keys {
		if k == key {
			return true
		}
	}
	return false
}

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
var yamlLine = regexp.MustCompile(`^line (\d+):`)

// shift adds off to the line number a YAML error message starts with.
func (y yamlReader) shift(msg string) string {
	m := yamlLine.FindStringSubmatch(msg)
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
