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

// Lines shows every key of r, in the order of rules.
func (r *Resolved) Lines(rules []MergeRule) []Line {
	out := make([]Line, 0, len(rules))
	for _, rule := range rules {
		v, ok := fieldByKey(reflect.ValueOf(r.Config).Elem(), rule.Key)
		if !ok {
			continue
		}
		out = append(out, Line{Key: rule.Key, Value: showValue(v), Source: r.Sources[rule.Key]})
	}
	return out
}

// durationType is time.Duration's type, shown as a duration, not a number.
var durationType = reflect.TypeFor[time.Duration]()

// Keys lists the field paths of every leaf of Config (by JSON name; a
// struct is walked into, an embedded one flattened; a list, a map and a
// duration are leaves), the keys a MergeRule decides.
func Keys() []string { return keysOf(reflect.TypeFor[Config](), "") }

func keysOf(t reflect.Type, prefix string) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-" || !f.IsExported():
		case f.Anonymous:
			out = append(out, keysOf(f.Type, prefix)...)
		case f.Type.Kind() == reflect.Struct && f.Type != durationType:
			out = append(out, keysOf(f.Type, prefix+name+".")...)
		default:
			out = append(out, prefix+name)
		}
	}
	return out
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
