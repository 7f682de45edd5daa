package canonical

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// maxDepth bounds nesting so hostile input cannot exhaust the stack.
const maxDepth = 512

// ErrNotStrict is wrapped by every Parse error: the input is not one strict
// JSON value.
var ErrNotStrict = errors.New("not strict json")

// Options choose how strict Parse is beyond strict JSON itself.
type Options struct {
	// RejectDuplicateKeys refuses an object that repeats a key; otherwise
	// the last value counts (as Python's json module does).
	RejectDuplicateKeys bool
}

// Parse reads exactly one JSON value from raw: valid UTF-8 without a
// byte-order mark, no trailing data, numbers kept as json.Number. NaN and
// Infinity are not JSON and are refused.
func Parse(raw []byte, opt Options) (any, error) {
	if bytes.HasPrefix(raw, []byte("\xef\xbb\xbf")) {
		return nil, fmt.Errorf("%w: starts with a byte-order mark", ErrNotStrict)
	}
	if !utf8.Valid(raw) {
		return nil, fmt.Errorf("%w: not valid UTF-8", ErrNotStrict)
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, fmt.Errorf("%w: the input is empty", ErrNotStrict)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := value(dec, opt, 0)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, fmt.Errorf("%w: the input ends inside the JSON value", ErrNotStrict)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotStrict, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: data after the JSON value", ErrNotStrict)
	}
	return v, nil
}

// ParseObject is Parse for input that must be a JSON object.
func ParseObject(raw []byte, opt Options) (map[string]any, error) {
	v, err := Parse(raw, opt)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: a JSON object was expected, got %s", ErrNotStrict, Kind(v))
	}
	return m, nil
}

func value(dec *json.Decoder, opt Options, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("nested deeper than %d", maxDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			return object(dec, opt, depth+1)
		}
		if t == '[' {
			return array(dec, opt, depth+1)
		}
		return nil, fmt.Errorf("unexpected %q", t)
	default:
		return t, nil
	}
}

func object(dec *json.Decoder, opt Options, depth int) (map[string]any, error) {
	m := map[string]any{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("object key expected")
		}
		if _, dup := m[k]; dup && opt.RejectDuplicateKeys {
			return nil, fmt.Errorf("duplicate key %q", k)
		}
		v, err := value(dec, opt, depth)
		if err != nil {
			return nil, err
		}
		m[k] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	return m, nil
}

func array(dec *json.Decoder, opt Options, depth int) ([]any, error) {
	out := []any{}
	for dec.More() {
		v, err := value(dec, opt, depth)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	return out, nil
}

// Kind names a parsed JSON value's type for messages: object, array,
// string, number, boolean or null.
func Kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}
