package review

import (
	"fmt"
	"strings"
)

// Limits on an audit block, so that decoding and checking stay cheap.
const (
	// MaxBlockBytes bounds the block's text (GitHub bounds a review body
	// at 65,536 characters).
	MaxBlockBytes = 256 << 10
	// MaxEntries bounds each list of the block.
	MaxEntries = 500
)

// decoder turns a value tree into an Audit, collecting problems.
type decoder struct{ probs Problems }

// field is one key of an object: whether it is required and how it is read.
type field struct {
	name     string
	required bool
	read     func(v *value, path string)
}

// object reads v as an object with exactly the given fields.
func (d *decoder) object(v *value, path string, fields []field) {
	if v.kind != kObject {
		d.probs.add(path, "must be an object with the fields %s, not %s", names(fields), v.kind)
		return
	}
	for i, k := range v.keys {
		f, ok := findField(fields, k)
		if !ok {
			d.probs.add(join(path, k), "is not a field here (expected %s)", names(fields))
			continue
		}
		f.read(v.vals[i], join(path, k))
	}
	for _, f := range fields {
		if f.required && !v.has(f.name) {
			d.probs.add(join(path, f.name), "is required")
		}
	}
}

func findField(fields []field, name string) (field, bool) {
	for _, f := range fields {
		if f.name == name {
			return f, true
		}
	}
	return field{}, false
}

func names(fields []field) string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.name
	}
	return strings.Join(out, ", ")
}

func join(path, key string) string { return path + "." + key }

// text reads a non-empty string (not only whitespace).
func (d *decoder) text(v *value, path string, into *string) {
	if v.kind != kString {
		d.probs.add(path, "must be text, not %s", v.kind)
		return
	}
	if strings.TrimSpace(v.text) == "" {
		d.probs.add(path, "must not be empty")
		return
	}
	*into = v.text
}

// oneOf reads text that must be one of allowed.
func (d *decoder) oneOf(v *value, path string, into *string, allowed []string) {
	var s string
	if d.text(v, path, &s); s == "" {
		return
	}
	for _, a := range allowed {
		if s == a {
			*into = s
			return
		}
	}
	d.probs.add(path, "must be one of %s (got %q)", strings.Join(allowed, ", "), s)
}

// list reads a list of at least min entries, calling item for each.
func (d *decoder) list(v *value, path string, min int, item func(v *value, path string)) {
	if v.kind != kArray {
		d.probs.add(path, "must be a list, not %s", v.kind)
		return
	}
	switch {
	case len(v.vals) < min:
		d.probs.add(path, "too few entries (at least %d)", min)
	case len(v.vals) > MaxEntries:
		d.probs.add(path, "too many entries (%d; at most %d)", len(v.vals), MaxEntries)
		return
	}
	for i, e := range v.vals {
		item(e, fmt.Sprintf("%s[%d]", path, i))
	}
}

// evidence reads an evidence list of at least min entries.
func (d *decoder) evidence(into *[]Evidence, min int) func(v *value, path string) {
	return func(v *value, path string) {
		d.list(v, path, min, func(v *value, path string) {
			var e Evidence
			d.object(v, path, []field{
				{"path", true, func(v *value, p string) { d.text(v, p, &e.Path) }},
				{"quote", true, func(v *value, p string) { d.text(v, p, &e.Quote) }},
			})
			*into = append(*into, e)
		})
	}
}
