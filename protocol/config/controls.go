package config

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"time"

	"go.yaml.in/yaml/v3"
)

// MaxTimeout is the longest timeout a declared control may set.
const MaxTimeout = 24 * time.Hour

// controls decodes the negative_controls list.
func (d *decoder) controls(v *yaml.Node, field string) []NegativeControl {
	if v.Kind != yaml.SequenceNode {
		d.errorf(v, field, "must be a list, not %s", kindName(v))
		return nil
	}
	names := map[string]bool{}
	out := make([]NegativeControl, 0, len(v.Content))
	for i, item := range v.Content {
		f := indexField(field, i)
		if item.Kind == yaml.AliasNode {
			d.errorf(item, f, "YAML aliases are not supported; write the value out")
			continue
		}
		nc, nameNode := d.control(item, f)
		if nc.Name != "" && names[nc.Name] {
			d.errorf(nameNode, f+".name", "duplicate control name %q", nc.Name)
		}
		names[nc.Name] = true
		out = append(out, nc)
	}
	return out
}

// control decodes one declared control and checks that its commands make
// a runnable sequence (the same rules as aepgate negcontrol's flags).
func (d *decoder) control(item *yaml.Node, f string) (NegativeControl, *yaml.Node) {
	nc := NegativeControl{Line: item.Line}
	var nameNode *yaml.Node
	text := func(dst *string) func(v *yaml.Node, f string) {
		return func(v *yaml.Node, f string) {
			if s, ok := d.str(v, f); ok {
				*dst = s
			}
		}
	}
	d.fields(item, f, fieldSetters{
		"name": func(v *yaml.Node, f string) {
			nameNode = v
			if s, ok := d.str(v, f); ok {
				nc.Name = s
				d.check(v, f, checkControlName(s))
			}
		},
		"file": func(v *yaml.Node, f string) {
			if s, ok := d.str(v, f); ok {
				nc.File = s
				d.check(v, f, d.pathRule(s, false))
			}
		},
		"break":   text(&nc.Break),
		"restore": text(&nc.Restore),
		"test":    text(&nc.Test),
		"expect": func(v *yaml.Node, f string) {
			if s, ok := d.str(v, f); ok {
				nc.Expect = s
				d.check(v, f, checkExpect(s))
			}
		},
		"timeout": func(v *yaml.Node, f string) { nc.Timeout = d.timeout(v, f) },
	})
	if item.Kind != yaml.MappingNode {
		return nc, nameNode
	}
	if nc.Name == "" && nameNode == nil {
		d.errorf(item, f+".name", "required")
	}
	if trimSpace(nc.Test) == "" {
		d.errorf(item, f+".test", "required: the command expected to fail without the protection")
	}
	d.check(item, f, checkSequence(nc))
	return nc, nameNode
}

// checkSequence mirrors the negcontrol CLI's mode rules.
func checkSequence(nc NegativeControl) string {
	switch {
	case nc.Break == "" && nc.Restore == "":
		return "set break, or restore for a break applied by hand"
	case nc.File == "" && nc.Restore == "":
		return "without file, restore is required (nothing to copy back)"
	case nc.File != "" && nc.Break == "":
		return "file needs break (the backup must be taken before the break)"
	}
	return ""
}

// checkExpect compiles an expect pattern the way negcontrol will use it.
func checkExpect(s string) string {
	if _, err := regexp.Compile("(?m)" + s); err != nil {
		return fmt.Sprintf("not a valid RE2 regular expression (lookarounds and back-references are not supported): %v", err)
	}
	return ""
}

// timeout decodes a Go duration ("90s", "2m") or a number of seconds.
func (d *decoder) timeout(v *yaml.Node, f string) time.Duration {
	const want = `must be a Go duration like "90s" or "2m", or a number of seconds`
	if v.Kind != yaml.ScalarNode || (v.Tag != "!!str" && v.Tag != "!!int" && v.Tag != "!!float") {
		d.errorf(v, f, "%s, not %s", want, kindName(v))
		return 0
	}
	dur, err := time.ParseDuration(v.Value)
	if err != nil {
		secs, ferr := strconv.ParseFloat(v.Value, 64)
		if ferr != nil || math.IsNaN(secs) || math.IsInf(secs, 0) {
			d.errorf(v, f, "%s, not %q", want, v.Value)
			return 0
		}
		if secs <= 0 || secs > MaxTimeout.Seconds() {
			d.errorf(v, f, "must be more than 0 and at most %s", MaxTimeout)
			return 0
		}
		dur = time.Duration(secs * float64(time.Second))
	}
	if dur <= 0 || dur > MaxTimeout {
		d.errorf(v, f, "must be more than 0 and at most %s", MaxTimeout)
		return 0
	}
	return dur
}
