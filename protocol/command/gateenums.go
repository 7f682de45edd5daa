package command

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/aepgate/aepgate/protocol/gate"
)

// choices decodes the list of choices: at least two after normalisation,
// each one word of at most MaxChoice characters.
func (d *blockDecoder) choices(n *yaml.Node) []string {
	if n.Kind != yaml.SequenceNode {
		d.fail(n, "choices", "must be a list such as [approve, reject]")
		return nil
	}
	if len(n.Content) > MaxChoices {
		d.fail(n, "choices", "has %d entries; at most %d allowed", len(n.Content), MaxChoices)
		return nil
	}
	raw := make([]string, 0, len(n.Content))
	ok := true
	for i, item := range n.Content {
		field := fmt.Sprintf("choices[%d]", i)
		s, good := d.text(item, field, MaxChoice)
		if good && strings.ContainsFunc(s, unicode.IsSpace) {
			d.fail(item, field, "%q must be one word, so that the owner can type it after the gate id", s)
			good = false
		}
		ok = ok && good
		raw = append(raw, s)
	}
	out := gate.NormaliseChoices(raw)
	if ok && len(out) < 2 {
		d.fail(n, "choices", "must offer at least two different choices (saw %s)", quoteAll(out))
		return nil
	}
	return out
}

// enum decodes one value of an enumeration.
func (d *blockDecoder) enum(n *yaml.Node, field string, valid func(string) bool, all []string) string {
	if n.Kind == yaml.ScalarNode && valid(n.Value) {
		return n.Value
	}
	d.fail(n, field, "must be one of %s (got %q)", strings.Join(all, ", "), n.Value)
	return ""
}

// effect decodes the external effect with gate's reasons for a refused or
// unknown one (craft-rules §3.2).
func (d *blockDecoder) effect(n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode {
		d.fail(n, "effect", "must be one of %s", strings.Join(gate.ExternalEffects(), ", "))
		return ""
	}
	if _, msg := gate.EffectProblem(n.Value); msg != "" {
		d.fail(n, "effect", "%s", msg)
		return ""
	}
	return n.Value
}

// id decodes and cleans the gate id.
func (d *blockDecoder) id(n *yaml.Node) string {
	s, ok := d.text(n, "id", MaxChoice)
	if !ok {
		return ""
	}
	id, err := gate.CleanID(s)
	if err != nil {
		d.fail(n, "id", "%q: %v", s, err)
		return ""
	}
	return id
}

// quoteAll lists texts from a block, each Go-quoted as every echo of what
// someone wrote is (a reply shows each quotation as a code span).
func quoteAll(texts []string) string {
	out := make([]string, len(texts))
	for i, s := range texts {
		out[i] = strconv.Quote(s)
	}
	return strings.Join(out, ", ")
}
