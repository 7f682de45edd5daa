// Package yamldoc is aepgate's one strict YAML reader: it parses outside
// text (the repository config, aep-gate blocks, work-unit contracts,
// aep-audit blocks) into a yaml.Node tree, turns the parser's errors into
// positioned ones, and walks mappings with repeated keys flagged. It is
// pure: no I/O, no GitHub import. Each caller words its own messages from
// the errors and flags it returns.
package yamldoc

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// ErrEmpty is returned for a text that holds no YAML document (nothing, or
// only comments).
var ErrEmpty = errors.New("yamldoc: no YAML document")

// SyntaxError is a YAML parser error, positioned in the text it read.
type SyntaxError struct {
	// Line is the 1-based line in the text; 0 when the parser gave none.
	Line int
	// Message is the parser's text without its "yaml: line N: " prefix.
	Message string
	// InRest is true when the error is after the first document (only
	// with Options.OneDocument).
	InRest bool
}

// Error renders the error as "line 3: mapping values are not allowed ...".
func (e *SyntaxError) Error() string {
	if e.Line == 0 {
		return e.Message
	}
	return "line " + strconv.Itoa(e.Line) + ": " + e.Message
}

// ExtraDocumentError is returned, with Options.OneDocument, for a text that
// holds a second document.
type ExtraDocumentError struct {
	// Node is the second document's node, for its position.
	Node *yaml.Node
}

// Error says what is wrong.
func (e *ExtraDocumentError) Error() string { return "yamldoc: more than one YAML document" }

// Options say how strictly Decode reads.
type Options struct {
	// OneDocument refuses a text holding a second document; otherwise
	// whatever follows the first document is not read.
	OneDocument bool
	// ParserLines corrects the line of yaml.v3's parser errors ("did not
	// find expected ..."), which it counts from 0 unlike its scanner's.
	ParserLines bool
}

// Decode parses text as YAML and returns the root node of its first
// document. The error is ErrEmpty, a *SyntaxError or an
// *ExtraDocumentError.
func Decode(text []byte, o Options) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var doc yaml.Node
	err := dec.Decode(&doc)
	if errors.Is(err, io.EOF) || (err == nil && len(doc.Content) == 0) {
		return nil, ErrEmpty
	}
	if err != nil {
		return nil, syntaxError(err, o, false)
	}
	if o.OneDocument {
		var extra yaml.Node
		switch err := dec.Decode(&extra); {
		case errors.Is(err, io.EOF):
		case err != nil:
			return nil, syntaxError(err, o, true)
		default:
			return nil, &ExtraDocumentError{Node: &extra}
		}
	}
	return doc.Content[0], nil
}

var lineRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)^yaml: line (\d+): (.*)$`) })

// syntaxError positions a yaml.v3 error.
func syntaxError(err error, o Options, inRest bool) *SyntaxError {
	msg := err.Error()
	e := &SyntaxError{Message: strings.TrimPrefix(msg, "yaml: "), InRest: inRest}
	if m := lineRE().FindStringSubmatch(msg); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Message = m[2]
		if o.ParserLines && strings.HasPrefix(m[2], "did not find expected") {
			e.Line++
		}
	}
	return e
}

// Pair is one key and value of a mapping node.
type Pair struct {
	Key, Value *yaml.Node
	// Repeat is true when a key before this one in the mapping had the
	// same value: YAML forbids it and every aepgate input refuses it.
	Repeat bool
}

// Pairs lists the keys and values of mapping node m in order, flagging
// repeated keys. A node that is not a mapping has no pairs.
func Pairs(m *yaml.Node) []Pair {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	out := make([]Pair, 0, len(m.Content)/2)
	seen := make(map[string]bool, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		out = append(out, Pair{Key: k, Value: m.Content[i+1], Repeat: seen[k.Value]})
		seen[k.Value] = true
	}
	return out
}
