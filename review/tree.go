package review

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
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
