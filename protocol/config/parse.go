package config

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/aepgate/aepgate/protocol/yamldoc"
)

// Parse decodes and validates one config file. filename is used only in
// error positions. On success it returns the config with Default's values
// for every field the file leaves out; otherwise it returns nil and an
// Errors list holding every problem found, sorted by line.
//
// An empty file (or one holding only comments) is an error, not an
// all-defaults config: "version: 1" is required, so a file that says nothing
// is taken for a mistake. A repository without the file at all is the
// caller's case to handle, usually with Default().
func Parse(filename string, data []byte) (*Config, error) { return parse(filename, data, checkPath) }

// parse is Parse validating every repository path with pathRule.
func parse(filename string, data []byte, pathRule func(s string, glob bool) string) (*Config, error) {
	return decode(&decoder{file: filename, pathRule: pathRule}, data)
}

// decode is parse with decoder d, which says the file's name and path rule
// and, when its set map is not nil, records the keys the file sets.
func decode(d *decoder, data []byte) (*Config, error) {
	filename := d.file
	if len(data) > MaxSize {
		return nil, Errors{{File: filename, Message: fmt.Sprintf("%d bytes is more than a config file needs (limit %d)", len(data), MaxSize)}}
	}
	root, ok := d.document(data)
	if !ok {
		return nil, d.errs
	}
	c := Default()
	d.config(root, c)
	if len(d.errs) > 0 {
		sortErrors(d.errs)
		return nil, d.errs
	}
	return c, nil
}

// MaxSize is the largest config file Parse accepts, in bytes.
const MaxSize = 1 << 20

// decoder walks the YAML node tree, filling a Config and collecting errors.
type decoder struct {
	file string
	errs Errors
	// pathRule validates a repository path or glob, returning the problem
	// or "": checkPath when Parse decodes; the negative-control test passes
	// one that accepts every path.
	pathRule func(s string, glob bool) string
	// set, when not nil, records the position of every key the file gives
	// a value (not null), by field path (ParseFile).
	set map[string]Pos
}

func (d *decoder) errorf(n *yaml.Node, field, format string, args ...any) {
	e := Error{File: d.file, Field: field, Message: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Column = n.Line, n.Column
	}
	d.errs = append(d.errs, e)
}

// syntaxError turns a YAML parser error into a positioned Error.
func (d *decoder) syntaxError(e *yamldoc.SyntaxError) {
	d.errs = append(d.errs, Error{File: d.file, Line: e.Line, Message: "invalid YAML: " + e.Message})
}

// document parses data as exactly one YAML document and returns its root
// node, or false after recording why it cannot.
func (d *decoder) document(data []byte) (*yaml.Node, bool) {
	root, err := yamldoc.Decode(data, yamldoc.Options{OneDocument: true, ParserLines: true})
	var syn *yamldoc.SyntaxError
	var extra *yamldoc.ExtraDocumentError
	switch {
	case err == nil:
		return root, true
	case errors.As(err, &syn):
		d.syntaxError(syn)
	case errors.As(err, &extra):
		d.errorf(extra.Node, "", "the file holds more than one YAML document; keep one")
	default:
		d.errs = append(d.errs, Error{File: d.file, Line: 1, Column: 1, Field: "version",
			Message: `the file is empty; it needs at least "version: 1"`})
	}
	return nil, false
}

// kindName says what a node is, in words for error messages.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	switch n.Tag {
	case "!!null":
		return "null"
	case "!!bool":
		return "true/false"
	case "!!int", "!!float":
		return "a number"
	case "!!str":
		return "a string"
	}
	return "a " + strings.TrimPrefix(n.Tag, "!!")
}

// fieldSetters maps each known key of a mapping to the function that
// decodes its value; the function gets the value node and its field path.
type fieldSetters map[string]func(v *yaml.Node, field string)

// fields decodes mapping n key by key. Unknown and duplicate keys are
// errors; null values are skipped, so the field keeps its default.
func (d *decoder) fields(n *yaml.Node, path string, set fieldSetters) {
	if n.Kind != yaml.MappingNode {
		d.errorf(n, path, "must be a mapping, not %s", kindName(n))
		return
	}
	for _, p := range yamldoc.Pairs(n) {
		k, v := p.Key, p.Value
		if k.Kind != yaml.ScalarNode {
			d.errorf(k, path, "keys must be plain names, not %s", kindName(k))
			continue
		}
		field := joinField(path, k.Value)
		if p.Repeat {
			d.errorf(k, field, "duplicate key")
			continue
		}
		fn, ok := set[k.Value]
		if !ok {
			d.errorf(k, field, "unknown key (known keys: %s)", knownKeys(set))
			continue
		}
		if v.Kind == yaml.AliasNode {
			d.errorf(v, field, "YAML aliases are not supported; write the value out")
			continue
		}
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			continue
		}
		if d.set != nil {
			d.set[field] = Pos{Line: k.Line, Column: k.Column}
		}
		fn(v, field)
	}
}

func joinField(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// knownKeys lists a mapping's keys in a stable order for error messages.
func knownKeys(set fieldSetters) string {
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sortStrings(keys)
	return strings.Join(keys, ", ")
}
