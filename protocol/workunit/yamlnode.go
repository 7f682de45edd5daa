package workunit

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/aepgate/aepgate/protocol/position"
	"github.com/aepgate/aepgate/protocol/yamldoc"
)

// Limits from the craft protocol (craft-rules §5.2): customer text is
// at most 800 characters, lists hold at most 32 entries.
const (
	maxText  = 800
	maxItems = 32
)

// Problem is one positioned reason a contract or increment description is
// invalid. Line is the 1-based line in the issue or milestone body (0 when
// the problem is not tied to a line). It renders as "line 4: risk: must be ...".
type Problem = position.Problem

// mapping parses text as one YAML mapping and returns its key/value pairs,
// reporting lines offset by base (the body line of the block's first line).
func mapping(text string, base int) ([]yamldoc.Pair, []Problem) {
	m, err := yamldoc.Decode([]byte(text), yamldoc.Options{})
	var syn *yamldoc.SyntaxError
	switch {
	case errors.As(err, &syn):
		return nil, []Problem{yamlError(syn, base)}
	case err != nil:
		return nil, []Problem{{Line: base, Message: "the yaml block is empty"}}
	case m.Kind != yaml.MappingNode:
		return nil, []Problem{{Line: base + m.Line - 1, Message: "the yaml block must be a mapping of fields"}}
	}
	return yamldoc.Pairs(m), nil
}

// fieldDecoder decodes typed fields from YAML nodes, collecting problems.
// decodeFields decodes block b as a yaml mapping and calls field once for
// each distinct key, in order; a repeated key is a problem. ok is false when
// b is not a mapping, and then field is never called. The returned decoder
// holds every problem found; seen holds the keys met.
func decodeFields(b block, field func(d *fieldDecoder, k, v *yaml.Node)) (d *fieldDecoder, seen map[string]bool, ok bool) {
	d = &fieldDecoder{base: b.line}
	pairs, probs := mapping(b.text, b.line)
	if probs != nil {
		d.problems = probs
		return d, nil, false
	}
	seen = map[string]bool{}
	for _, p := range pairs {
		if p.Repeat {
			d.fail(p.Key, p.Key.Value, "appears twice")
			continue
		}
		seen[p.Key.Value] = true
		field(d, p.Key, p.Value)
	}
	return d, seen, true
}

type fieldDecoder struct {
	base     int
	problems []Problem
}

func (d *fieldDecoder) fail(n *yaml.Node, field, format string, args ...any) {
	line := 0
	if n != nil {
		line = d.base + n.Line - 1
	}
	d.problems = append(d.problems, Problem{Line: line, Field: field, Message: fmt.Sprintf(format, args...)})
}

// text decodes a non-empty single-line-or-block string within maxText.
func (d *fieldDecoder) text(n *yaml.Node, field string) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		d.fail(n, field, "must be text")
		return "", false
	}
	s := strings.TrimSpace(n.Value)
	switch {
	case s == "":
		d.fail(n, field, "must not be empty")
		return "", false
	case len([]rune(s)) > maxText:
		d.fail(n, field, "is %d characters long; at most %d allowed", len([]rune(s)), maxText)
		return "", false
	case hasControl(s):
		d.fail(n, field, "contains a control character (only tab and newline are allowed)")
		return "", false
	}
	return s, true
}

// list decodes a non-empty list of texts within maxItems.
func (d *fieldDecoder) list(n *yaml.Node, field string) ([]string, bool) {
	if n.Kind != yaml.SequenceNode {
		d.fail(n, field, "must be a list of texts")
		return nil, false
	}
	if len(n.Content) == 0 {
		d.fail(n, field, "must list at least one entry")
		return nil, false
	}
	if len(n.Content) > maxItems {
		d.fail(n, field, "has %d entries; at most %d allowed", len(n.Content), maxItems)
		return nil, false
	}
	out := make([]string, 0, len(n.Content))
	ok := true
	for i, item := range n.Content {
		s, good := d.text(item, fmt.Sprintf("%s[%d]", field, i))
		ok = ok && good
		out = append(out, s)
	}
	return out, ok
}

// enum decodes one of the allowed words.
func (d *fieldDecoder) enum(n *yaml.Node, field string, allowed ...string) (string, bool) {
	if n.Kind == yaml.ScalarNode {
		for _, a := range allowed {
			if n.Value == a {
				return a, true
			}
		}
	}
	d.fail(n, field, "must be one of %s (got %q)", strings.Join(allowed, ", "), n.Value)
	return "", false
}

// issueRefs decodes a list of same-repository issue numbers written as 12 or "#12".
func (d *fieldDecoder) issueRefs(n *yaml.Node, field string) []int {
	if n.Kind != yaml.SequenceNode {
		d.fail(n, field, "must be a list of issue numbers such as [12, \"#13\"]")
		return nil
	}
	if len(n.Content) > maxItems {
		d.fail(n, field, "has %d entries; at most %d allowed", len(n.Content), maxItems)
		return nil
	}
	var out []int
	seen := map[int]bool{}
	for i, item := range n.Content {
		f := fmt.Sprintf("%s[%d]", field, i)
		num, err := strconv.Atoi(strings.TrimPrefix(item.Value, "#"))
		if item.Kind != yaml.ScalarNode || err != nil || num <= 0 {
			d.fail(item, f, "must be an issue number such as 12 or \"#12\" (got %q)", item.Value)
			continue
		}
		if seen[num] {
			d.fail(item, f, "#%d is listed twice", num)
			continue
		}
		seen[num] = true
		out = append(out, num)
	}
	return out
}

// yamlError turns a YAML syntax error into a problem on the body's line.
func yamlError(e *yamldoc.SyntaxError, base int) Problem {
	if e.Line > 0 {
		return Problem{Line: base + e.Line - 1, Message: "not valid YAML: " + e.Message}
	}
	return Problem{Line: base, Message: "not valid YAML: " + e.Message}
}

func hasControl(s string) bool {
	for _, r := range s {
		if r != '\t' && r != '\n' && unicode.IsControl(r) {
			return true
		}
	}
	return false
}
