package config

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
)

// Line is one key of a resolved policy as shown: its effective value
// (YAML flow syntax) and where it came from.
type Line struct {
	Key    string `json:"key"`
	Value  string `json:"value"`
	Source Source `json:"source"`
}

// Lines shows every key of r, in the order of rules, under the names the
// file uses (docs/config.md's schema): an owners map's patterns are shown
// with its "*" entry as the one key owners, in the map form, and
// owners_from as owners.from.
func (r *Resolved) Lines(rules []MergeRule) []Line {
	out := make([]Line, 0, len(rules))
	for _, rule := range rules {
		switch rule.Key {
		case "path_owners":
			continue // shown with owners
		case "owners":
			out = append(out, Line{Key: "owners", Value: showOwners(r.Config),
				Source: joinSources(r.Sources["owners"], r.Sources["path_owners"])})
			continue
		case "agent_approvals":
			out = append(out, Line{Key: "agents.approvals", Value: showJSON(r.Config.AgentApprovalsNeeded()), Source: r.Sources[rule.Key]})
			continue
		case "agent_settings":
			out = append(out, Line{Key: "agents.accounts", Value: showJSON(r.Config.AgentSettings), Source: r.Sources[rule.Key]})
			continue
		case "owners_from":
			out = append(out, Line{Key: "owners.from", Value: showJSON(r.Config.OwnersFrom), Source: r.Sources[rule.Key]})
			continue
		}
		v, ok := fieldByKey(reflect.ValueOf(r.Config).Elem(), rule.Key)
		if !ok {
			continue
		}
		out = append(out, Line{Key: rule.Key, Value: showValue(v), Source: r.Sources[rule.Key]})
	}
	return out
}

// showOwners writes the owners as the file would: a flat list, or, with
// patterns, a map whose "*" entry comes first and the patterns after it in
// file order.
func showOwners(c *Config) string {
	if len(c.PathOwners) == 0 {
		return showJSON(c.Owners)
	}
	var b strings.Builder
	b.WriteString("{\"*\": " + showJSON(c.Owners))
	for _, p := range c.PathOwners {
		b.WriteString(", " + showJSON(p.Pattern) + ": " + showJSON(p.Owners))
	}
	return b.String() + "}"
}

// joinSources is where a key shown from two merge rules came from: both
// files when either rule took from both or each took from one, else the
// one file that set it, else the default.
func joinSources(a, b Source) Source {
	switch {
	case a == FromBoth || b == FromBoth || (a == FromBase && b == FromRepository) || (a == FromRepository && b == FromBase):
		return FromBoth
	case a == FromDefault:
		return b
	}
	return a
}

// fieldByKey is the field of struct v at key (as Keys names it).
func fieldByKey(v reflect.Value, key string) (reflect.Value, bool) {
	head, rest, nested := strings.Cut(key, ".")
	for i := range v.NumField() {
		f := v.Type().Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous {
			if got, ok := fieldByKey(v.Field(i), key); ok {
				return got, true
			}
			continue
		}
		if name != head {
			continue
		}
		if nested {
			return fieldByKey(v.Field(i), rest)
		}
		return v.Field(i), true
	}
	return reflect.Value{}, false
}

// showValue writes a value in YAML flow syntax: durations as Go durations,
// negative controls by name, the rest as JSON (which YAML reads).
func showValue(v reflect.Value) string {
	switch x := v.Interface().(type) {
	case time.Duration:
		return x.String()
	case []NegativeControl:
		names := make([]string, len(x))
		for i, c := range x {
			names[i] = c.Name
		}
		return showJSON(names)
	}
	return showJSON(v.Interface())
}

func showJSON(x any) string {
	if v := reflect.ValueOf(x); (v.Kind() == reflect.Slice || v.Kind() == reflect.Map) && v.Len() == 0 {
		if v.Kind() == reflect.Map {
			return "{}"
		}
		return "[]"
	}
	b, err := json.Marshal(x)
	if err != nil {
		return fmt.Sprintf("%v", x)
	}
	return string(b)
}
